import {
  contentFingerprint,
  countMessageTokens,
  gptTokenizerCounter,
  type Message,
  type TokenCache,
  type TokenCounter,
} from '@compaction/core';

/** How many per-message counts a {@link sharedTokenCache} keeps before it drops the oldest. */
export const SHARED_TOKEN_CACHE_ENTRIES = 200_000;

/**
 * A token cache for every core session of an adapter, so a model call counts
 * only the messages no earlier call counted. Like core's `createTokenCache`
 * (bounded, the oldest counts go first), but a count is keyed by message id
 * *and* content fingerprint (core's `contentFingerprint`, computed once per
 * message object): LangGraph replaces a message under the same id, another
 * conversation may reuse an id, and core's own messages (`compaction-summary-v1`)
 * repeat their ids from one conversation to the next — none of these gets a
 * count made for other content.
 */
export function sharedTokenCache(counter: TokenCounter, maxEntries = SHARED_TOKEN_CACHE_ENTRIES): TokenCache {
  const counts = new Map<string, number>();
  const keys = new WeakMap<Message, string>();
  const keyOf = (message: Message): string => {
    let key = keys.get(message);
    if (key === undefined) {
      key = `${message.id}\u0000${contentFingerprint([message.role, message.parts])}`;
      keys.set(message, key);
    }
    return key;
  };
  return {
    counter,
    count(message) {
      const key = keyOf(message);
      let tokens = counts.get(key);
      if (tokens === undefined) {
        tokens = countMessageTokens(message, counter);
        // Oldest first out: a Map iterates in insertion order.
        if (counts.size >= maxEntries) counts.delete(counts.keys().next().value as string);
        counts.set(key, tokens);
      }
      return tokens;
    },
    forget(id) {
      for (const key of counts.keys()) if (key.startsWith(`${id}\u0000`)) counts.delete(key);
    },
    get size() {
      return counts.size;
    },
  };
}

/** One cache per counter name, for every middleware and chat history of the process. */
const processCaches = new Map<string, TokenCache>();

/**
 * The process-wide {@link sharedTokenCache} of a counter, by its `name` (what a
 * count is made with): a new middleware, a new chat history per call
 * (`getMessageHistory` usually makes one) or a new session for a known
 * conversation does not count its messages again.
 *
 * @param counter - the counter the sessions count with.
 * @default counter gptTokenizerCounter('o200k_base') (core's default)
 */
export function tokenCacheFor(counter: TokenCounter = gptTokenizerCounter()): TokenCache {
  let cache = processCaches.get(counter.name);
  if (cache === undefined) {
    cache = sharedTokenCache(counter);
    processCaches.set(counter.name, cache);
  }
  return cache;
}
