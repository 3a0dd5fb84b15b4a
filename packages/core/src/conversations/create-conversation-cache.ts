import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { serialQueue } from '../store/serial-queue.js';
import {
  type ConversationMemory,
  createConversationMemory,
  type MemoryNode,
  memoryLedger,
} from './conversation-memory.js';

/**
 * Estimated bytes a cache of conversations may hold unless told otherwise
 * (64 MiB): with {@link HELD_MESSAGE_BYTES} a message, some 100,000 messages —
 * e.g. 500 conversations of 200 messages each.
 */
export const CONVERSATION_CACHE_BYTES = 64 * 2 ** 20;

/** Options of {@link createConversationCache}. */
export type ConversationCacheOptions<Entry> = {
  /**
   * Estimated bytes an entry holds (see `heldMessagesBytes`). Read when the
   * entry is put and again each time it is used, as conversations grow.
   */
  sizeOf: (entry: Entry) => number;
  /**
   * The bound: past it the least recently used conversations go (an entry
   * bigger than the whole bound is kept alone until the next one comes).
   * @default CONVERSATION_CACHE_BYTES
   */
  maxBytes?: number;
  /**
   * A budget shared with other caches (`processConversationMemory()`, or one
   * from `createConversationMemory`): the bound is the budget's, over the
   * entries of every cache that uses it, and the least recently used of them
   * all goes first. Not together with `maxBytes`.
   * @default undefined (a budget of this cache's own, of `maxBytes`)
   */
  memory?: ConversationMemory;
  /**
   * Called with each entry the bound drops (not with entries taken or deleted).
   * @default undefined
   */
  onEvict?: (key: string, entry: Entry) => void;
};

/** The conversations a process keeps in memory; see {@link createConversationCache}. */
export type ConversationCache<Entry> = {
  /**
   * The entry of `key`, made by `create` when there is none or when
   * `canReuse(entry)` says the kept one no longer serves (it is replaced).
   * Marks it the most recently used.
   */
  obtain(key: string, create: () => Entry, canReuse?: (entry: Entry) => boolean): Entry;
  /** The entry of `key` if kept, marked the most recently used. */
  get(key: string): Entry | undefined;
  /** Removes and returns the entry of `key` (a caller that holds it alone, e.g. for one call). */
  take(key: string): Entry | undefined;
  /** Keeps `entry` under `key` as the most recently used, replacing any, then applies the bound. */
  put(key: string, entry: Entry): void;
  /** Forgets `key`. Returns whether it was kept. */
  delete(key: string): boolean;
  /**
   * Runs `task` after every task of `key` started before it, even a failed one
   * (one serial queue per conversation; conversations run freely in parallel).
   * When it settles, the entry's size is read again and the bound applied: the
   * task is what grows a conversation.
   */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** How many conversations are kept. */
  readonly size: number;
  /** This cache's entries' estimated bytes, as of when each was last used. */
  readonly bytes: number;
};

type Node<Entry> = MemoryNode & {
  key: string;
  entry: Entry;
};

/**
 * A least-recently-used cache of per-conversation entries (a session, its
 * conversions), bounded by estimated memory rather than by a count, as
 * TanStack Query's `QueryCache` holds queries by key: adapters configure one
 * with what an entry is, how to make it and when a kept one may be reused.
 * Every operation is O(1): entries sit in a map and in their budget's doubly
 * linked list in order of use, and eviction unlinks from the old end. With
 * `memory`, several caches share one budget and one order of use.
 *
 * @example
 * ```ts
 * const sessions = createConversationCache({
 *   memory: processConversationMemory(),
 *   sizeOf: (entry) => heldMessagesBytes(entry.messages.length),
 * });
 * const entry = sessions.obtain(conversationCacheKey(chatId, modelId), () => makeEntry(chatId));
 * ```
 */
export function createConversationCache<Entry>(options: ConversationCacheOptions<Entry>): ConversationCache<Entry> {
  if (options.memory !== undefined && options.maxBytes !== undefined) {
    throw new InvalidSettingsError({
      setting: 'maxBytes',
      problem: 'cannot be given with memory (the shared budget is the bound); give one of them',
    });
  }
  const maxBytes = options.maxBytes ?? CONVERSATION_CACHE_BYTES;
  if (options.memory === undefined && !(maxBytes > 0)) {
    throw new InvalidSettingsError({
      setting: 'maxBytes',
      problem: `must be a number of bytes > 0 (got ${String(maxBytes)}); leave it out for ${CONVERSATION_CACHE_BYTES}`,
    });
  }
  const ledger = memoryLedger(options.memory ?? createConversationMemory(maxBytes));
  const nodes = new Map<string, Node<Entry>>();
  const queue = serialQueue();
  let total = 0;

  function sizeOf(entry: Entry): number {
    const bytes = options.sizeOf(entry);
    return Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  }

  /** Re-reads a node's size, keeping this cache's own total in step. */
  function measure(node: Node<Entry>): number {
    const bytes = sizeOf(node.entry);
    total += bytes - node.bytes;
    return bytes;
  }

  function forget(node: Node<Entry>): void {
    nodes.delete(node.key);
    total -= node.bytes;
  }

  function remove(node: Node<Entry>): void {
    ledger.remove(node);
    forget(node);
  }

  const cache: ConversationCache<Entry> = {
    obtain(key, create, canReuse) {
      const node = nodes.get(key);
      if (node && (canReuse === undefined || canReuse(node.entry))) {
        ledger.touch(node, measure(node));
        ledger.evict();
        return node.entry;
      }
      const entry = create();
      cache.put(key, entry);
      return entry;
    },
    get(key) {
      const node = nodes.get(key);
      if (!node) return undefined;
      ledger.touch(node, measure(node));
      ledger.evict();
      return node.entry;
    },
    take(key) {
      const node = nodes.get(key);
      if (!node) return undefined;
      remove(node);
      return node.entry;
    },
    put(key, entry) {
      const existing = nodes.get(key);
      if (existing) remove(existing);
      const node: Node<Entry> = {
        key,
        entry,
        bytes: sizeOf(entry),
        older: undefined,
        newer: undefined,
        evicted() {
          forget(node);
          options.onEvict?.(key, entry);
        },
      };
      nodes.set(key, node);
      total += node.bytes;
      ledger.add(node);
      ledger.evict();
    },
    delete(key) {
      const node = nodes.get(key);
      if (!node) return false;
      remove(node);
      return true;
    },
    run(key, task) {
      const resize = () => {
        const node = nodes.get(key);
        if (!node) return;
        ledger.resize(node, measure(node));
        ledger.evict();
      };
      return queue(key, async () => {
        try {
          return await task();
        } finally {
          resize();
        }
      });
    },
    get size() {
      return nodes.size;
    },
    get bytes() {
      return total;
    },
  };
  return cache;
}
