import { StoreError } from './errors/store-error.js';
import type { LoadHistoryOptions, SaveRecordOptions } from './session-store.js';

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The `from` of `loadHistory` options, checked: a non-negative integer (0 when absent).
 *
 * @param options - What the caller passed.
 * @param source - The file or key, named in the error.
 * @throws StoreError (operation `loadHistory`) when `from` is negative, fractional or not a number.
 */
export function checkFrom(options: LoadHistoryOptions | undefined, source: string): number {
  const from = options?.from ?? 0;
  if (!isCount(from)) {
    throw new StoreError({
      operation: 'loadHistory',
      source,
      problem: `options.from must be a non-negative integer (the index of the first message to load), got ${JSON.stringify(from) ?? String(from)}`,
    });
  }
  return from;
}

/**
 * The `expectedRevision` of `saveRecord` options, checked: a non-negative
 * integer, or undefined for an unconditional save.
 *
 * @param options - What the caller passed.
 * @param source - The file or key, named in the error.
 * @throws StoreError (operation `saveRecord`) when it is negative, fractional or not a number.
 */
export function checkExpectedRevision(options: SaveRecordOptions | undefined, source: string): number | undefined {
  const expected = options?.expectedRevision;
  if (expected !== undefined && !isCount(expected)) {
    throw new StoreError({
      operation: 'saveRecord',
      source,
      problem: `options.expectedRevision must be a non-negative integer (the revision the record was computed from, 0 for none), got ${JSON.stringify(expected) ?? String(expected)}; nothing was saved`,
    });
  }
  return expected;
}
