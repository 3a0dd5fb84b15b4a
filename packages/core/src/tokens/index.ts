export { countMessageTokens, countPartTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './count-message-tokens.js';
export { createTokenCache, type TokenCache, type TokenCacheOptions } from './create-token-cache.js';
export {
  calibratedTokens,
  type EstimateContextOptions,
  estimateContextTokens,
  type LastUsage,
} from './estimate-context-tokens.js';
export { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
export { heuristicCounter } from './heuristic-counter.js';
export { maxMessageTokens } from './max-message-tokens.js';
export { sharedTokenCache } from './shared-token-cache.js';
export { type TiktokenEncoding, tiktokenCounter } from './tiktoken-counter.js';
export type { TokenCounter } from './token-counter.js';
