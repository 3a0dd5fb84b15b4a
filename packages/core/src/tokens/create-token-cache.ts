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
export function createTokenCache(counter: TokenCounter, options: { maxEntries?: number } = {}): TokenCache {
  const counts = new Map<string, number>();
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  return {
    counter,
    count(message) {
      let tokens = counts.get(message.id);
      if (tokens === undefined) {
        tokens = countMessageTokens(message, counter);
        // Oldest first out: a Map iterates in insertion order.
        if (counts.size >= maxEntries) counts.delete(counts.keys().next().value as string);
        counts.set(message.id, tokens);
      }
      return tokens;
    },
    peek(id) {
      return counts.get(id);
    },
    forget(id) {
      counts.delete(id);
    },
    get size() {
      return counts.size;
    },
  };
}
