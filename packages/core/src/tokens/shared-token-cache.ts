import { createTokenCache, type TokenCache, type TokenCacheOptions } from './create-token-cache.js';
import { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
import type { TokenCounter } from './token-counter.js';

/**
 * How many bytes a process-wide cache's counts hold unless told otherwise
 * (32 MiB: some 400,000 counts keyed by content); the least recently used go first.
 */
export const SHARED_TOKEN_CACHE_BYTES = 32 * 2 ** 20;

const caches = new Map<string, TokenCache>();

/**
 * The process-wide token cache of a counter (by its `name`, which is what a
 * count is made with) and of these options: adapters pass it as `tokenCache` to
 * every session they make, so a new session — per call, per middleware, or for a
 * conversation seen before — counts only messages no session counted.
 *
 * @param counter - the counter the sessions count with.
 * @default counter gptTokenizerCounter('o200k_base') (the session default)
 * @default options.maxBytes SHARED_TOKEN_CACHE_BYTES
 * @default options.maxEntries unbounded (the bytes bound it)
 */
export function sharedTokenCache(
  counter: TokenCounter = gptTokenizerCounter(),
  options: TokenCacheOptions = {},
): TokenCache {
  const maxBytes = options.maxBytes ?? SHARED_TOKEN_CACHE_BYTES;
  const keyByContent = options.keyByContent ?? false;
  const key = `${counter.name}\u0000${options.maxEntries}\u0000${maxBytes}\u0000${keyByContent}`;
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = createTokenCache(counter, {
      maxBytes,
      keyByContent,
      ...(options.maxEntries !== undefined ? { maxEntries: options.maxEntries } : {}),
    });
    caches.set(key, cache);
  }
  return cache;
}
