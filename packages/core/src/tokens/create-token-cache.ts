import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
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
  /** Estimated bytes the cached counts hold (keys and map entries). */
  readonly bytes: number;
};

/** Options of {@link createTokenCache}. */
export type TokenCacheOptions = {
  /**
   * How many counts to keep at most; beyond it the least recently used half goes.
   * @default unbounded
   */
  maxEntries?: number;
  /**
   * How many bytes the counts may hold at most (estimated: each key's characters
   * plus {@link TOKEN_CACHE_ENTRY_BYTES}); beyond it the least recently used half goes.
   * @default unbounded
   */
  maxBytes?: number;
  /**
   * Key counts by id *and* content fingerprint (computed once per message object)
   * instead of by id alone — for frameworks that replace a message under its id
   * (LangGraph) or where conversations may reuse ids. `peek` is then unavailable.
   * @default false
   */
  keyByContent?: boolean;
};

/** Bytes one cached count costs besides its key's characters (the map entry, the number, the key's header). */
export const TOKEN_CACHE_ENTRY_BYTES = 48;

/**
 * A cache of per-message token counts keyed by `message.id`, so estimating the
 * context before every model call only counts messages not seen before.
 *
 * In this library a message id identifies its content: histories are append-only
 * and adapters derive ids from content when the framework has none (an edited
 * message gets a new id). A message with a known id is therefore not re-counted,
 * even if its object is different; call `forget(id)` if you ever reuse an id for
 * new content.
 *
 * Bounded by `maxEntries` and `maxBytes` in O(1) per call: counts live in two
 * generations (the current one takes new and re-used counts; when it holds half
 * the bound it becomes the old one and the previous old one is dropped whole), so
 * what is dropped is what was not used for the longest — without walking or
 * reordering entries. `forget` is O(1) by id and a scan of the keys with
 * `keyByContent`.
 *
 * @example
 * ```ts
 * const cache = createTokenCache(tiktokenCounter(), { maxBytes: 32 * 2 ** 20 });
 * const total = history.reduce((sum, message) => sum + cache.count(message), 0);
 * ```
 */
export function createTokenCache(counter: TokenCounter, options: TokenCacheOptions = {}): TokenCache {
  const maxEntries = bound(options.maxEntries, 'maxEntries');
  const maxBytes = bound(options.maxBytes, 'maxBytes');
  // Each generation holds at most half the bound, so both together stay within it.
  const generationEntries = Math.max(1, Math.floor(maxEntries / 2));
  const generationBytes = maxBytes / 2;
  let current = new Map<string, number>();
  let currentBytes = 0;
  let previous = new Map<string, number>();
  let previousBytes = 0;
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

  function remember(key: string, tokens: number): void {
    const bytes = entryBytes(key);
    if (bytes > generationBytes) return; // a key longer than half the bound is not worth keeping
    if (current.size >= generationEntries || currentBytes + bytes > generationBytes) {
      // With a bound of one entry, the old generation would hold a second one: drop it instead.
      previous = maxEntries === 1 ? new Map() : current;
      previousBytes = maxEntries === 1 ? 0 : currentBytes;
      current = new Map();
      currentBytes = 0;
    }
    current.set(key, tokens);
    currentBytes += bytes;
  }

  function drop(key: string): void {
    if (current.delete(key)) currentBytes -= entryBytes(key);
    if (previous.delete(key)) previousBytes -= entryBytes(key);
  }

  const cache: TokenCache = {
    counter,
    count(message) {
      const key = keyOf(message);
      const tokens = current.get(key);
      if (tokens !== undefined) return tokens;
      const old = previous.get(key);
      if (old !== undefined) {
        // Used again: it moves to the current generation, so it outlives the old one.
        previous.delete(key);
        previousBytes -= entryBytes(key);
        remember(key, old);
        return old;
      }
      const counted = countMessageTokens(message, counter);
      remember(key, counted);
      return counted;
    },
    forget(id) {
      if (!contentKeys) {
        drop(id);
        return;
      }
      const prefix = `${id}\u0000`;
      for (const map of [current, previous]) {
        for (const key of [...map.keys()]) if (key.startsWith(prefix)) drop(key);
      }
    },
    get size() {
      return current.size + previous.size;
    },
    get bytes() {
      return currentBytes + previousBytes;
    },
  };
  if (!contentKeys) cache.peek = (id) => current.get(id) ?? previous.get(id);
  return cache;
}

function entryBytes(key: string): number {
  return TOKEN_CACHE_ENTRY_BYTES + key.length;
}

function bound(value: number | undefined, setting: string): number {
  if (value === undefined) return Number.POSITIVE_INFINITY;
  if (!(value >= 1)) {
    throw new InvalidSettingsError({
      setting,
      problem: `must be a number ≥ 1 (got ${String(value)}); leave it out for no bound`,
    });
  }
  return value;
}
