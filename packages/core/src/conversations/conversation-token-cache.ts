import type { TokenCache } from '../tokens/create-token-cache.js';
import { gptTokenizerCounter } from '../tokens/gpt-tokenizer-counter.js';
import { sharedTokenCache } from '../tokens/shared-token-cache.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/**
 * The one token cache of the process that every adapter's sessions count
 * through: `sharedTokenCache(counter, { keyByContent: true })`, so the AI SDK,
 * LangChain and Mastra adapters in one process share counts (keyed by id and
 * content, as LangGraph replaces a message under its id and Mastra may edit one
 * in place) and an evicted conversation that comes back is not recounted while
 * its counts are still cached.
 *
 * @default counter gptTokenizerCounter('o200k_base')
 */
export function conversationTokenCache(counter: TokenCounter = gptTokenizerCounter()): TokenCache {
  return sharedTokenCache(counter, { keyByContent: true });
}
