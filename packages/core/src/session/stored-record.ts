import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { SessionRecord } from '../store/session-store.js';
import type { SessionPersistenceOptions } from './session-persistence-options.js';

/** `record` with the revision the store gave it (stores before compare-and-set give none). */
// biome-ignore lint/suspicious/noConfusingVoidType: stores written before compare-and-set resolve to void (see SessionStore).
export function withRevision(record: SessionRecord, revision: number | void): SessionRecord {
  return typeof revision === 'number' ? { ...record, revision } : record;
}

/**
 * The stored record, or `{}` when there is none. A record that fails validation
 * (an `InvalidStateError`, or a store error caused by one) is set aside: passed
 * to `onBadRecord` and read as `{}`, so the next save replaces it. Any other
 * failure is thrown.
 */
export async function loadStoredRecord(
  options: Pick<SessionPersistenceOptions, 'store' | 'sessionId'>,
  onBadRecord: (error: unknown) => void,
): Promise<SessionRecord> {
  try {
    return (await options.store.loadRecord(options.sessionId)) ?? {};
  } catch (error) {
    if (!InvalidStateError.isInstance(error) && !InvalidStateError.isInstance((error as Error)?.cause)) throw error;
    onBadRecord(error);
    return {};
  }
}
