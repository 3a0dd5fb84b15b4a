import { createTokenCache, type TokenCache, type TokenCacheOptions } from './create-token-cache.js';
import { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
import type { TokenCounter } from './token-counter.js';

/** How many counts a process-wide cache keeps unless told otherwise; the oldest go first. */
export const SHARED_TOKEN_CACHE_ENTRIES = 200_000;

const caches = new Map<string, TokenCache>();

/**
 * The process-wide token cache of a counter (by its `name`, which is what a
 * count is made with) and of these options: adapters pass it as `tokenCache` to
 * every session they make, so a new session — per call, per middleware, or for a
 * conversation seen before — counts only messages no session counted.
 *
 * @param counter - the counter the sessions count with.
 * @default counter gptTokenizerCounter('o200k_base') (the session default)
 * @default options.maxEntries SHARED_TOKEN_CACHE_ENTRIES
 */
export function sharedTokenCache(
  counter: TokenCounter = gptTokenizerCounter(),
  options: TokenCacheOptions = {},
): TokenCache {
  const maxEntries = options.maxEntries ?? SHARED_TOKEN_CACHE_ENTRIES;
  const keyByContent = options.keyByContent ?? false;
  const key = `${counter.name}\u0000${maxEntries}\u0000${keyByContent}`;
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = createTokenCache(counter, { maxEntries, keyByContent });
    caches.set(key, cache);
  }
  return cache;
}
