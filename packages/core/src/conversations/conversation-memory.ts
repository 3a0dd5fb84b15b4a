import { InvalidSettingsError } from '../errors/invalid-settings-error.js';

/**
 * Estimated bytes the conversations of a whole process may hold unless told
 * otherwise (64 MiB, what one adapter's caches held before they shared it): the
 * one budget every adapter's caches share (see {@link processConversationMemory}).
 * At the adapters' measured cost of a kept message (`heldMessagesBytes`:
 * 535–1,200 bytes) that is some 270–600 conversations of 200 messages. A bigger
 * budget moves, but does not remove, the point past which a round-robin of
 * conversations misses on every call: keeping 10,000 such conversations would
 * take 1–2.5 GB.
 */
export const PROCESS_CONVERSATION_BYTES = 64 * 2 ** 20;

/**
 * A memory budget shared by conversation caches (`createConversationCache`
 * with `memory`): one least-recently-used order over every entry of every cache
 * that uses it, so the bound holds for all of them together — however many
 * middlewares, agents or processors a process creates — and the conversation
 * evicted is the one used longest ago, whichever cache holds it. Every
 * operation is O(1).
 */
export type ConversationMemory = {
  /** The bound, in estimated bytes. */
  readonly maxBytes: number;
  /** Estimated bytes of every entry kept, as of when each was last used. */
  readonly bytes: number;
  /** How many entries are kept, in all caches together. */
  readonly size: number;
};

/** An entry's place in a budget's order of use, with what to do when the budget drops it. */
export type MemoryNode = {
  bytes: number;
  older: MemoryNode | undefined;
  newer: MemoryNode | undefined;
  /** Called once when the budget evicts the node (already unlinked): the owning cache forgets it. */
  evicted(): void;
};

/** What a cache does with its budget (internal to `createConversationCache`). */
export type MemoryLedger = {
  /** Links a node as the most recently used and adds its bytes. */
  add(node: MemoryNode): void;
  /** Marks a node the most recently used, at its current size. */
  touch(node: MemoryNode, bytes: number): void;
  /** Updates a node's size without changing its place. */
  resize(node: MemoryNode, bytes: number): void;
  /** Unlinks a node and subtracts its bytes (not an eviction: `evicted` is not called). */
  remove(node: MemoryNode): void;
  /** Evicts from the least recently used end while over the bound, never the most recently used node. */
  evict(): void;
};

const ledgers = new WeakMap<ConversationMemory, MemoryLedger>();

/**
 * A new memory budget for conversation caches to share. Most code wants
 * {@link processConversationMemory} instead: the one budget of the process.
 *
 * @param maxBytes - the bound in estimated bytes; an entry bigger than the whole bound is kept alone until the next one comes.
 * @default maxBytes PROCESS_CONVERSATION_BYTES
 */
export function createConversationMemory(maxBytes: number = PROCESS_CONVERSATION_BYTES): ConversationMemory {
  if (!(typeof maxBytes === 'number' && maxBytes > 0)) {
    throw new InvalidSettingsError({
      setting: 'maxBytes',
      problem: `must be a number of bytes > 0 (got ${String(maxBytes)}); leave it out for ${PROCESS_CONVERSATION_BYTES}`,
    });
  }
  let oldest: MemoryNode | undefined;
  let newest: MemoryNode | undefined;
  let total = 0;
  let size = 0;

  function unlink(node: MemoryNode): void {
    if (node.older) node.older.newer = node.newer;
    else oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else newest = node.older;
    node.older = undefined;
    node.newer = undefined;
  }

  function pushNewest(node: MemoryNode): void {
    node.older = newest;
    if (newest) newest.newer = node;
    else oldest = node;
    newest = node;
  }

  const ledger: MemoryLedger = {
    add(node) {
      pushNewest(node);
      total += node.bytes;
      size += 1;
    },
    touch(node, bytes) {
      if (node !== newest) {
        unlink(node);
        pushNewest(node);
      }
      ledger.resize(node, bytes);
    },
    resize(node, bytes) {
      total += bytes - node.bytes;
      node.bytes = bytes;
    },
    remove(node) {
      unlink(node);
      total -= node.bytes;
      size -= 1;
    },
    evict() {
      while (total > maxBytes && oldest !== undefined && oldest !== newest) {
        const node = oldest;
        ledger.remove(node);
        node.evicted();
      }
    },
  };

  const memory: ConversationMemory = {
    maxBytes,
    get bytes() {
      return total;
    },
    get size() {
      return size;
    },
  };
  ledgers.set(memory, ledger);
  return memory;
}

let processMemory: ConversationMemory | undefined;

/**
 * The one memory budget of the process ({@link PROCESS_CONVERSATION_BYTES}),
 * which the adapters' session and conversion caches share: the bound is the
 * process's, not each middleware's, and a conversation served by several
 * caches grows old in all of them together.
 */
export function processConversationMemory(): ConversationMemory {
  processMemory ??= createConversationMemory();
  return processMemory;
}

/**
 * Estimated bytes the conversations a process holds "counted, not loaded" may take
 * (160 MiB): a conversation whose session keeps only its ids' hashes and the messages
 * after its usage record (`prepare({ history })`), ~15 KB for 200 messages instead of
 * 90–150 KB loaded, so some 11,000 of them. Apart from {@link PROCESS_CONVERSATION_BYTES},
 * so a few hundred loaded conversations do not push out thousands of counted ones, nor
 * these the loaded ones.
 */
export const PROCESS_COUNTED_CONVERSATION_BYTES = 160 * 2 ** 20;

let countedMemory: ConversationMemory | undefined;

/**
 * The process's budget for conversations held counted, not loaded
 * ({@link PROCESS_COUNTED_CONVERSATION_BYTES}); an adapter keeps a conversation here
 * while its session holds it counted and in {@link processConversationMemory} otherwise.
 */
export function processCountedConversationMemory(): ConversationMemory {
  countedMemory ??= createConversationMemory(PROCESS_COUNTED_CONVERSATION_BYTES);
  return countedMemory;
}

/** The ledger of a budget made by {@link createConversationMemory} (internal to the caches). */
export function memoryLedger(memory: ConversationMemory): MemoryLedger {
  const ledger = ledgers.get(memory);
  if (!ledger) {
    throw new InvalidSettingsError({
      setting: 'memory',
      problem: 'is not a budget made by createConversationMemory() or processConversationMemory(); make one with those',
    });
  }
  return ledger;
}
