import { InvalidUsageError } from '../errors/invalid-usage-error.js';
import type { MessageUsage } from '../messages/types.js';
import type { SessionRecord } from '../store/session-store.js';
import { updateCalibration } from '../tokens/update-calibration.js';

/** Growth (counted tokens) between two calls below which no calibration sample is taken. */
export const MIN_CALIBRATION_GROWTH = 500;

/** What the session handed to the model last, which a usage report refers to. */
export type PreparedCall = {
  historyLength: number;
  contextMessageCount: number;
  stateVersion: number;
  /** Our count (before calibration) of that context. */
  counted: number;
  lastMessageId?: string;
};

/**
 * Validates a usage report at the boundary: every token figure present must be a
 * finite number >= 0 (not a string, `NaN` or `Infinity`).
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
 * The record after the provider reported `inputTokens` for the `prepared` call:
 * the usage bound to that history, and the calibration ratio updated from the
 * growth since the previous report on the same compaction version (so fixed
 * overhead such as tool definitions does not skew it).
 */
export function nextUsageRecord(
  record: SessionRecord,
  prepared: PreparedCall,
  inputTokens: number,
  modelKey: string,
): SessionRecord {
  const previous = record.usage;
  let calibration = record.calibration;
  if (previous?.countedTokens !== undefined && previous.stateVersion === prepared.stateVersion) {
    const grownCounted = prepared.counted - previous.countedTokens;
    const grownReported = inputTokens - previous.inputTokens;
    if (grownCounted >= MIN_CALIBRATION_GROWTH) {
      const updated = updateCalibration(calibration?.[modelKey], grownReported, grownCounted);
      if (updated !== undefined) calibration = { ...calibration, [modelKey]: updated };
    }
  }
  return {
    ...record,
    usage: {
      inputTokens,
      contextMessageCount: prepared.contextMessageCount,
      historyLength: prepared.historyLength,
      stateVersion: prepared.stateVersion,
      countedTokens: prepared.counted,
      ...(prepared.lastMessageId !== undefined ? { lastMessageId: prepared.lastMessageId } : {}),
    },
    ...(calibration !== undefined ? { calibration } : {}),
  };
}
