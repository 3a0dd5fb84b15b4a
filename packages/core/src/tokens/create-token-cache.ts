import { contentFingerprint } from '../messages/content-id.js';
import type { Message } from '../messages/types.js';
import { countMessageTokens } from './count-message-tokens.js';
import type { TokenCounter } from './token-counter.js';

/** Per-message token counts remembered by message id. See {@link createTokenCache}. */
export type TokenCache = {
  /** The counter every count in this cache was made with. */
  readonly counter: TokenCounter;
  /** Tokens of `message` (`countMessageTokens`), counted once per id. */
  count(message: Message): number;
  /** The cached count of a message id, without counting (optional: an optimization). */
  peek?(id: string): number | undefined;
  /** Drops the count of one message id (e.g. a message removed from the history). */
  forget(id: string): void;
  /** How many message ids are cached. */
  readonly size: number;
};

/** Options of {@link createTokenCache}. */
export type TokenCacheOptions = {
  /**
   * How many counts to keep; beyond it the oldest go first.
   * @default unbounded
   */
  maxEntries?: number;
  /**
   * Key counts by id *and* content fingerprint (computed once per message object)
   * instead of by id alone — for frameworks that replace a message under its id
   * (LangGraph) or where conversations may reuse ids. `peek` is then unavailable.
   * @default false
   */
  keyByContent?: boolean;
};

/**
 * A cache of per-message token counts keyed by `message.id`, so estimating the
 * context before every model call only counts messages not seen before.
 *
 * In this library a message id identifies its content: histories are append-only
 * and adapters derive ids from content when the framework has none (an edited
 * message gets a new id). A message with a known id is therefore not re-counted,
 * even if its object is different; call `forget(id)` if you ever reuse an id for
 * new content. Entries live as long as the cache (one per session is the usual
 * scope; adapters share one across the sessions of a process and bound it with
 * `maxEntries`, dropping the oldest counts first); `forget` removes them one by one.
 *
 * @example
 * ```ts
 * const cache = createTokenCache(tiktokenCounter());
 * const total = history.reduce((sum, message) => sum + cache.count(message), 0);
 * ```
 */
export function createTokenCache(counter: TokenCounter, options: TokenCacheOptions = {}): TokenCache {
  const counts = new Map<string, number>();
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  const contentKeys = options.keyByContent ? new WeakMap<Message, string>() : undefined;
  const keyOf = (message: Message): string => {
    if (!contentKeys) return message.id;
    let key = contentKeys.get(message);
    if (key === undefined) {
      key = `${message.id}\u0000${contentFingerprint([message.role, message.parts])}`;
      contentKeys.set(message, key);
    }
    return key;
  };
  const cache: TokenCache = {
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
      if (!contentKeys) {
        counts.delete(id);
        return;
      }
      for (const key of counts.keys()) if (key.startsWith(`${id}\u0000`)) counts.delete(key);
    },
    get size() {
      return counts.size;
    },
  };
  if (!contentKeys) cache.peek = (id) => counts.get(id);
  return cache;
}
