import { repairToolPairs } from '../compaction/build-context.js';
import type { Message } from '../messages/types.js';
import type { SessionRecord, UsageRecord } from '../store/session-store.js';
import type { TokenCache } from '../tokens/create-token-cache.js';
import { estimateContextTokens } from '../tokens/estimate-context-tokens.js';
import { maxMessageTokens } from '../tokens/max-message-tokens.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { countedPair } from './next-usage-record.js';

/**
 * A history held "counted, not loaded": for every message a 53-bit hash of its id (what
 * `planSync` compares to tell an append from a branch, and what a new message's id is
 * checked against), and only the messages the usage record did not cover when they came
 * (what the next usage report reads). The usage record stands for the rest: the provider's
 * count of it (`inputTokens`), and our count of it or of a prefix of it (`countedTokens`, or
 * `countedPrefixTokens` once calls far below the trigger left it behind: see `countedPair`). Only a history whose context is
 * the history itself (no compaction state, no tool pair to repair) is held this way. Eight
 * bytes a message, where the ids themselves cost 40–50 (a string each, and its slot).
 */
export type CountedHistory = {
  /** How many messages the history holds. */
  length: number;
  /** `idHash` of each message's id, oldest first (the first `length` are in use). */
  hashes: Float64Array;
  /** The messages from index `tailFrom` to the end. */
  tail: Message[];
  /** The index of `tail[0]` in the history. */
  tailFrom: number;
  /** The id of the message before the tail (at `tailFrom - 1`), if any. */
  beforeTail: string | undefined;
};

/**
 * A 53-bit hash of a message id (cyrb53's lanes and finalizer, fed a 32-bit word of two
 * code units a step, seeded with the length; kept in memory only). Two different ids at one place of the history
 * with the same hash would be taken as the same message: about one chance in 2^53 a
 * message compared; a new id whose hash the history holds is checked against the ids themselves.
 */
export function idHash(id: string): number {
  const length = id.length;
  let h1 = 0xdeadbeef ^ length;
  let h2 = 0x41c6ce57 ^ length;
  // Two UTF-16 code units a step (one 32-bit word): half the multiplications of one a step.
  let index = 0;
  for (; index + 1 < length; index += 2) {
    const word = id.charCodeAt(index) | (id.charCodeAt(index + 1) << 16);
    h1 = Math.imul(h1 ^ word, 2654435761);
    h2 = Math.imul(h2 ^ word, 1597334677);
  }
  if (index < length) {
    const code = id.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A counted history of `history` whose messages before `coveredLength` the usage record stands for. */
export function countHistory(history: readonly Message[], coveredLength: number): CountedHistory {
  const hashes = new Float64Array(history.length + 8);
  for (let index = 0; index < history.length; index += 1) hashes[index] = idHash(history[index]!.id);
  return {
    length: history.length,
    hashes,
    tail: history.slice(coveredLength),
    tailFrom: coveredLength,
    beforeTail: coveredLength > 0 ? history[coveredLength - 1]!.id : undefined,
  };
}

/** The id of the message at `index`, when the history still holds it (in the tail, or just before it). */
function idAt(history: CountedHistory, index: number): string | undefined {
  if (index >= history.tailFrom) return history.tail[index - history.tailFrom]?.id;
  return index === history.tailFrom - 1 ? history.beforeTail : undefined;
}

/** The id of the history's last message. */
export function lastCountedId(history: CountedHistory): string | undefined {
  return history.length > 0 ? idAt(history, history.length - 1) : undefined;
}

/**
 * The usage record when it stands for a counted history: no compaction state, our count
 * of a prefix of the one it was reported for, and that prefix's last id found at its place (what
 * `usageCoversHistory` checks of a loaded history). Lets go of the tail messages it covers now.
 */
export function countedUsage(record: SessionRecord, history: CountedHistory): UsageRecord | undefined {
  const usage = record.usage;
  if (record.state || !usage || usage.stateVersion !== 0 || !countedPair(usage)) return undefined;
  const { historyLength } = usage;
  if (historyLength < history.tailFrom || historyLength > history.length) return undefined;
  if (
    usage.lastMessageId !== undefined &&
    historyLength > 0 &&
    idAt(history, historyLength - 1) !== usage.lastMessageId
  ) {
    return undefined;
  }
  if (historyLength > history.tailFrom) {
    history.beforeTail = history.tail[historyLength - 1 - history.tailFrom]!.id;
    history.tail = history.tail.slice(historyLength - history.tailFrom);
    history.tailFrom = historyLength;
  }
  return usage;
}

/**
 * The first index from `from` on where `messages` (the caller's messages from `from`)
 * has another id than `history` — `history.length` when the history is a prefix.
 */
export function countedCommonLength(history: CountedHistory, from: number, messages: readonly Message[]): number {
  const end = Math.min(history.length, from + messages.length);
  let common = from;
  while (common < end && history.hashes[common] === idHash(messages[common - from]!.id)) common += 1;
  return common;
}

/** Whether an id's hash is among the history's (then the id may be one of its ids). */
export function mayHoldId(history: CountedHistory, id: string): boolean {
  const hash = idHash(id);
  for (let index = 0; index < history.length; index += 1) if (history.hashes[index] === hash) return true;
  return false;
}

/** Appends messages (validated by the caller) to a counted history. */
export function appendCounted(history: CountedHistory, messages: readonly Message[]): void {
  if (history.length + messages.length > history.hashes.length) {
    const grown = new Float64Array(Math.ceil((history.length + messages.length) * 1.25) + 8);
    grown.set(history.hashes.subarray(0, history.length));
    history.hashes = grown;
  }
  for (const message of messages) {
    history.hashes[history.length] = idHash(message.id);
    history.length += 1;
    history.tail.push(message);
  }
}

/** Whether appended messages keep a context that is the history itself (every tool call answered after it, no orphan result). */
export function appendsAsIs(messages: readonly Message[]): boolean {
  return repairToolPairs(messages) === messages;
}

/** What the estimate of a counted history reads besides it. */
export type CountedFigures = {
  cache: TokenCache;
  counter: TokenCounter;
  /** The learned provider-to-counter ratio. */
  ratio: number;
};

/**
 * What one call over a counted history reads, taken when its bound is: the usage record
 * that stands for the history, the messages after it up to the call's length (a copy: the
 * history's tail is let go of and grows with later calls and reports), and the figures.
 */
export type CountedTaken = {
  usage: UsageRecord;
  /** The messages from `usage.historyLength` to the call's length. */
  after: readonly Message[];
  figures: CountedFigures;
};

/** Takes a call's {@link CountedTaken} over the first `length` messages of `history` (`usage` from {@link countedUsage}). */
export function takeCounted(
  history: CountedHistory,
  usage: UsageRecord,
  length: number,
  figures: CountedFigures,
): CountedTaken {
  const after = history.tail.slice(usage.historyLength - history.tailFrom, length - history.tailFrom);
  return { usage, after, figures };
}

/** `TokenEstimate.upperBound` of a counted call (the same sum, over the messages after the record). */
export function countedUpperBound(taken: CountedTaken): number {
  const { usage, after, figures } = taken;
  let added = 0;
  for (const message of after) added += figures.cache.peek?.(message.id) ?? maxMessageTokens(message);
  return usage.inputTokens + Math.ceil(added * Math.max(1, figures.ratio));
}

/** `TokenEstimate.estimate()` of a counted call: the provider's report plus the messages after it, calibrated. */
export function countedEstimate(taken: CountedTaken): number {
  const { usage, after, figures } = taken;
  return estimateContextTokens(after, {
    counter: figures.counter,
    cache: figures.cache,
    ratio: figures.ratio,
    lastUsage: { inputTokens: usage.inputTokens, messageCount: 0 },
  });
}
