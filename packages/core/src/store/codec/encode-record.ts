import { CompactionError } from '../../errors/compaction-error.js';
import { StoreError } from '../errors/store-error.js';
import type { SessionRecord } from '../session-store.js';
import { validateSessionRecord } from '../validate-record.js';
import { encodeValue } from './encode-value.js';

/**
 * Checks a record and serializes it without its `revision` (the store assigns
 * that), before anything is written.
 *
 * @param record - The record to save.
 * @param source - The file or key it goes to, named in the error.
 * @returns The JSON text.
 * @throws StoreError (operation `saveRecord`) when a field is invalid (e.g.
 *   `usage.inputTokens: Infinity`) or cannot be stored.
 */
export function encodeRecord(record: SessionRecord, source: string): string {
  const { revision: _ignored, ...fields } = record;
  try {
    validateSessionRecord(fields, source);
    return JSON.stringify(encodeValue(fields));
  } catch (error) {
    throw new StoreError({
      operation: 'saveRecord',
      source,
      problem: `nothing was saved: ${CompactionError.isInstance(error) ? error.message : (error as Error).message}`,
      cause: error,
    });
  }
}
