import { repairToolPairs } from '../compaction/build-context.js';
import type { Message } from '../messages/types.js';
import type { SessionRecord, UsageRecord } from '../store/session-store.js';
import type { TokenCache } from '../tokens/create-token-cache.js';
import { estimateContextTokens } from '../tokens/estimate-context-tokens.js';
import { maxMessageTokens } from '../tokens/max-message-tokens.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/**
 * A history held "counted, not loaded": the ids of every message (what `planSync`
 * compares to tell an append from a branch) and only the messages the usage record
 * did not cover when they came (what the next usage report counts). The usage record
 * stands for the rest: our count of it (`countedTokens`) and the provider's
 * (`inputTokens`). Only a history whose context is the history itself (no compaction
 * state, no tool pair to repair) is held this way.
 */
export type CountedHistory = {
  /** Every message's id, oldest first. */
  readonly ids: string[];
  /** The messages from index `tailFrom` to the end. */
  tail: Message[];
  /** The index of `tail[0]` in the history. */
  tailFrom: number;
};

/** A counted history of `history` whose messages before `coveredLength` the usage record stands for. */
export function countHistory(history: readonly Message[], coveredLength: number): CountedHistory {
  const ids = new Array<string>(history.length);
  for (let index = 0; index < history.length; index += 1) ids[index] = history[index]!.id;
  return { ids, tail: history.slice(coveredLength), tailFrom: coveredLength };
}

/**
 * The usage record when it stands for a counted history: no compaction state, our count
 * of the prefix it was reported for, and that prefix's last id found at its place (what
 * `usageCoversHistory` checks of a loaded history). Drops the tail messages it covers now.
 */
export function countedUsage(record: SessionRecord, history: CountedHistory): UsageRecord | undefined {
  const usage = record.usage;
  if (record.state || !usage || usage.stateVersion !== 0 || usage.countedTokens === undefined) return undefined;
  const { historyLength } = usage;
  if (historyLength < history.tailFrom || historyLength > history.ids.length) return undefined;
  if (
    usage.lastMessageId !== undefined &&
    historyLength > 0 &&
    history.ids[historyLength - 1] !== usage.lastMessageId
  ) {
    return undefined;
  }
  if (historyLength > history.tailFrom) {
    history.tail = history.tail.slice(historyLength - history.tailFrom);
    history.tailFrom = historyLength;
  }
  return usage;
}

/**
 * The first index from `from` on where `messages` (the caller's messages from `from`)
 * has another id than `history` — `history.ids.length` when the history is a prefix.
 */
export function countedCommonLength(history: CountedHistory, from: number, messages: readonly Message[]): number {
  const { ids } = history;
  const end = Math.min(ids.length, from + messages.length);
  let common = from;
  while (common < end && ids[common] === messages[common - from]!.id) common += 1;
  return common;
}

/** Appends messages (validated by the caller) to a counted history. */
export function appendCounted(history: CountedHistory, messages: readonly Message[]): void {
  for (const message of messages) {
    history.ids.push(message.id);
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

/** `TokenEstimate.upperBound` of a counted history (the same sum, over its tail). */
export function countedUpperBound(history: CountedHistory, usage: UsageRecord, figures: CountedFigures): number {
  let added = 0;
  for (let index = usage.historyLength - history.tailFrom; index < history.tail.length; index += 1) {
    const message = history.tail[index]!;
    added += figures.cache.peek?.(message.id) ?? maxMessageTokens(message);
  }
  return usage.inputTokens + Math.ceil(added * Math.max(1, figures.ratio));
}

/** `TokenEstimate.counted(upTo)` of a counted history: the record's count plus the tail's up to `upTo`. */
export function countedTokens(history: CountedHistory, usage: UsageRecord, upTo: number, cache: TokenCache): number {
  let tokens = usage.countedTokens ?? 0;
  for (let index = usage.historyLength; index < upTo; index += 1)
    tokens += cache.count(history.tail[index - history.tailFrom]!);
  return tokens;
}

/** `TokenEstimate.estimate()` of a counted history: the provider's report plus the tail after it, calibrated. */
export function countedEstimate(history: CountedHistory, usage: UsageRecord, figures: CountedFigures): number {
  const after = history.tail.slice(usage.historyLength - history.tailFrom);
  return estimateContextTokens(after, {
    counter: figures.counter,
    cache: figures.cache,
    ratio: figures.ratio,
    lastUsage: { inputTokens: usage.inputTokens, messageCount: 0 },
  });
}
