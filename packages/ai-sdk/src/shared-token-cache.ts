import { createTokenCache, gptTokenizerCounter, type TokenCache, type TokenCounter } from '@compaction/core';

/** How many per-message token counts the process keeps per counter; the oldest go first. */
export const MAX_SHARED_TOKEN_COUNTS = 100_000;

/** One cache per counter name, for every middleware and prepareStep function of the process. */
const caches = new Map<string, TokenCache>();

/**
 * The process-wide token cache of a counter (by its `name`, which is what
 * per-message counts are keyed by), bounded to {@link MAX_SHARED_TOKEN_COUNTS}
 * counts. Message ids here are content ids, so a count holds wherever its id
 * appears: a new session for a conversation seen before — evicted from a
 * registry, under another model id, or in a second middleware — does not
 * count its messages again.
 *
 * @param counter - the counter the sessions count with.
 * @default counter gptTokenizerCounter('o200k_base') (core's default)
 */
export function sharedTokenCache(counter: TokenCounter = gptTokenizerCounter()): TokenCache {
  let cache = caches.get(counter.name);
  if (cache === undefined) {
    cache = createTokenCache(counter, { maxEntries: MAX_SHARED_TOKEN_COUNTS });
    caches.set(counter.name, cache);
  }
  return cache;
}
