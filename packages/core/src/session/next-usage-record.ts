import { InvalidUsageError } from '../errors/invalid-usage-error.js';
import type { Message, MessageUsage } from '../messages/types.js';
import type { SessionRecord, UsageRecord } from '../store/session-store.js';
import { updateCalibration } from '../tokens/update-calibration.js';

/** Growth (counted tokens) between two calls below which no calibration sample is taken. */
export const MIN_CALIBRATION_GROWTH = 500;

/** What the session handed to the model last, which a usage report refers to. */
export type PreparedCall = {
  historyLength: number;
  contextMessageCount: number;
  stateVersion: number;
  /**
   * Our count (before calibration) of that context; undefined when it was not taken (a
   * call decided far below the trigger): the record then carries the previous record's
   * exact pair forward (see {@link countedPair}).
   */
  counted: number | undefined;
  lastMessageId?: string;
};

/**
 * The spellings other APIs give the two figures (OpenAI, Anthropic, LangChain's
 * `usage_metadata`, the AI SDK before v5): a report that holds one of them and not our
 * name would otherwise be read as "no figure" and the provider's count silently lost.
 */
const FOREIGN_USAGE_KEYS: Record<string, 'inputTokens' | 'outputTokens'> = {
  input_tokens: 'inputTokens',
  prompt_tokens: 'inputTokens',
  promptTokens: 'inputTokens',
  output_tokens: 'outputTokens',
  completion_tokens: 'outputTokens',
  completionTokens: 'outputTokens',
};

/**
 * Validates a usage report at the boundary: every token figure present must be a
 * finite number >= 0 (not a string, `NaN` or `Infinity`), and a figure given under
 * another API's name (`input_tokens`, `prompt_tokens`, `promptTokens`, and their output
 * twins) in a report that has neither of ours is refused rather than read as absent.
 * Other keys pass (the AI SDK's `result.usage`, with `totalTokens` and the like, or a
 * provider's payload spread beside our names, is a valid report).
 *
 * @throws {InvalidUsageError} naming the field and the value.
 */
export function checkUsage(usage: unknown): MessageUsage {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) {
    throw new InvalidUsageError({
      field: '(report)',
      problem: `must be an object like { inputTokens: 1200 }, got ${describe(usage)}`,
    });
  }
  const report = usage as Record<string, unknown>;
  const foreign = report.inputTokens === undefined && report.outputTokens === undefined;
  for (const [key, ours] of foreign ? Object.entries(FOREIGN_USAGE_KEYS) : []) {
    if (report[key] === undefined) continue;
    throw new InvalidUsageError({
      field: key,
      problem: `is another API's name for ${ours}: pass { ${ours}: ${describe(report[key])} } (core reads inputTokens and outputTokens only)`,
    });
  }
  for (const field of ['inputTokens', 'outputTokens'] as const) {
    const value = (usage as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InvalidUsageError({
        field,
        problem: `must be a finite number of tokens >= 0 (or left out), got ${describe(value)}; pass the provider's figure as a number`,
      });
    }
  }
  return usage as MessageUsage;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  if (value === null) return 'null';
  return typeof value;
}

/**
 * A usage record's exact pair: our count of the context over its first `length` history
 * messages, and what the provider reported for the call over exactly those.
 */
export type CountedPair = {
  /** How many first history messages the count covers. */
  length: number;
  /** Our count (before calibration) of that context. */
  tokens: number;
  /** The provider's input tokens for the call over those messages. */
  inputTokens: number;
  /** Usage reports recorded since that call (0: the record's own call). */
  reports: number;
};

/**
 * The exact pair a usage record holds: `countedPrefixTokens` over `countedLength` messages
 * with `countedInputTokens` while the count lags, else `countedTokens` over `historyLength`
 * with `inputTokens`. Undefined without our count, or when the count's length lies past
 * the record's `historyLength` (not a prefix of its call's history: no count).
 */
export function countedPair(usage: UsageRecord | undefined): CountedPair | undefined {
  const counted = usage?.countedLength !== undefined ? usage.countedPrefixTokens : usage?.countedTokens;
  if (usage === undefined || counted === undefined) return undefined;
  const length = usage.countedLength ?? usage.historyLength;
  if (length > usage.historyLength) return undefined;
  return {
    length,
    tokens: counted,
    inputTokens: usage.countedInputTokens ?? usage.inputTokens,
    reports: usage.reportsSinceCounted ?? 0,
  };
}

/**
 * Whether a report for a call over the first `historyLength` messages of `history` at
 * `stateVersion` can leave our count where `previous` (the record before that report) has
 * it: `previous` was made for a prefix of this very history (see {@link usageCoversHistory}:
 * not a branch of the same length), on the same compaction version, and its pair counts a
 * prefix of that call's messages.
 */
export function carriesCount(
  previous: UsageRecord | undefined,
  history: readonly Message[],
  historyLength: number,
  stateVersion: number,
): boolean {
  if (previous === undefined || previous.stateVersion !== stateVersion) return false;
  if (!usageCoversHistory(previous, history)) return false;
  const pair = countedPair(previous);
  return pair !== undefined && pair.length <= historyLength;
}

/** Whether a usage record was made for a prefix of this very history (not merely one of the same length). */
export function usageCoversHistory(usage: UsageRecord, history: readonly Message[]): boolean {
  if (usage.historyLength > history.length) return false;
  return (
    usage.lastMessageId === undefined ||
    usage.historyLength === 0 ||
    history[usage.historyLength - 1]?.id === usage.lastMessageId
  );
}

/**
 * The record after the provider reported `inputTokens` for the `prepared` call: the
 * usage bound to that history, and the calibration ratio updated from the growth since
 * the previous exact pair on the same compaction version (so fixed overhead such as tool
 * definitions does not skew it), one sample weighted as the calls it spans.
 *
 * A call whose count was not taken (`prepared.counted` undefined) keeps the previous
 * pair: its record holds the provider's figure, and `countedLength`,
 * `countedInputTokens` and `reportsSinceCounted` say how far our count goes. It learns
 * nothing. Without a pair to keep (see {@link carriesCount}) its record has no count.
 */
export function nextUsageRecord(
  record: SessionRecord,
  prepared: PreparedCall,
  inputTokens: number,
  modelKey: string,
): SessionRecord {
  const previous = record.usage;
  const pair = previous?.stateVersion === prepared.stateVersion ? countedPair(previous) : undefined;
  const call = {
    inputTokens,
    contextMessageCount: prepared.contextMessageCount,
    historyLength: prepared.historyLength,
    stateVersion: prepared.stateVersion,
  };
  const last = prepared.lastMessageId !== undefined ? { lastMessageId: prepared.lastMessageId } : {};
  if (prepared.counted === undefined) {
    let count: Partial<UsageRecord> = {};
    if (pair && pair.length === prepared.historyLength) {
      count = { countedTokens: pair.tokens }; // the same messages on the same version: the same context
    } else if (pair && pair.length < prepared.historyLength) {
      const stretch = { countedLength: pair.length, countedInputTokens: pair.inputTokens };
      count = { countedPrefixTokens: pair.tokens, ...stretch, reportsSinceCounted: pair.reports + 1 };
    }
    return { ...record, usage: { ...call, ...count, ...last } };
  }
  const calibration = learned(record, pair, prepared.counted, inputTokens, modelKey, 1);
  return {
    ...record,
    usage: { ...call, countedTokens: prepared.counted, ...last },
    ...(calibration !== undefined ? { calibration } : {}),
  };
}

/**
 * The record whose usage lags (see {@link nextUsageRecord}) once our count of its call's
 * context caught up (`counted`, over its `historyLength` messages): the usage exact again,
 * and the calibration sample of the stretch from its pair to that call, weighted as the
 * reports it spans. The usage is what a record of the same calls would hold had each been
 * counted; the ratio is close to what per-call counts would learn when each call grew by
 * `MIN_CALIBRATION_GROWTH` or more, and may be learned where they learned nothing (calls that
 * each grew less, which took no sample one by one).
 */
export function settledUsageRecord(record: SessionRecord, counted: number, modelKey: string): SessionRecord {
  const usage = record.usage;
  if (!usage) return record;
  const {
    countedLength: _length,
    countedInputTokens: _input,
    reportsSinceCounted: _reports,
    countedPrefixTokens: _prefix,
    ...call
  } = usage;
  const pair = countedPair(usage);
  const calibration = learned(record, pair, counted, usage.inputTokens, modelKey, 0);
  return {
    ...record,
    usage: { ...call, countedTokens: counted },
    ...(calibration !== undefined ? { calibration } : {}),
  };
}

/**
 * The calibration after an exact call (`counted`, `inputTokens`) following `pair`: one
 * sample over the growth since the pair, standing for the reports since it (`pair.reports`
 * plus `ownReports`), at most one per `MIN_CALIBRATION_GROWTH` counted (a call that grew
 * less took no sample).
 */
function learned(
  record: SessionRecord,
  pair: CountedPair | undefined,
  counted: number,
  inputTokens: number,
  modelKey: string,
  ownReports: number,
): Record<string, number> | undefined {
  const calibration = record.calibration;
  if (!pair) return calibration;
  const grownCounted = counted - pair.tokens;
  if (grownCounted < MIN_CALIBRATION_GROWTH) return calibration;
  const samples = Math.min(pair.reports + ownReports, Math.floor(grownCounted / MIN_CALIBRATION_GROWTH));
  if (samples < 1) return calibration;
  const updated = updateCalibration(calibration?.[modelKey], inputTokens - pair.inputTokens, grownCounted, samples);
  return updated !== undefined ? { ...calibration, [modelKey]: updated } : calibration;
}
