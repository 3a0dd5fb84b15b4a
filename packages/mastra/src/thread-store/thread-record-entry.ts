import { decodeRecord, encodeRecord, InvalidStateError, type SessionRecord } from '@compaction/core';

/**
 * What a Mastra thread's metadata holds under the compaction key: the session
 * record (plain JSON, without its revision) and the revision of the last save
 * or clear. A clear keeps the revision and drops the record, so revisions never
 * repeat on a thread.
 */
export type ThreadRecordEntry = {
  /** The revision of the last save or clear of this thread's record. */
  revision: number;
  /** The record's fields as `encodeRecord` checks and serializes them; absent after a clear. */
  record?: Record<string, unknown>;
};

/** What {@link readThreadRecordEntry} finds under the key. */
export type ThreadRecordRead = {
  /** The last revision issued on the thread (kept across clear): the next save goes above it. */
  lastRevision: number;
  /** The stored record with its revision, or undefined when there is none (never saved, or cleared). */
  record: SessionRecord | undefined;
};

const REMEDY = 'delete that metadata key to drop the compaction state (the messages stay in Mastra memory)';

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads and validates the entry a thread's metadata holds under the key.
 *
 * @param value - `thread.metadata[key]` (undefined when absent).
 * @param source - The thread and key, named in the error.
 * @throws InvalidStateError naming `source` when the entry is not one this store wrote, or its record is invalid.
 */
export function readThreadRecordEntry(value: unknown, source: string): ThreadRecordRead {
  if (value === undefined || value === null) return { lastRevision: 0, record: undefined };
  if (!isObject(value)) {
    throw new InvalidStateError({
      source,
      problem: `must be an object { revision, record }, got ${kind(value)}; ${REMEDY}`,
    });
  }
  const { revision, record } = value;
  if (!isCount(revision)) {
    throw new InvalidStateError({
      source,
      problem: `revision must be a non-negative integer, got ${JSON.stringify(revision) ?? String(revision)}; ${REMEDY}`,
    });
  }
  if (record === undefined) return { lastRevision: revision, record: undefined };
  if (!isObject(record)) {
    throw new InvalidStateError({ source, problem: `record must be an object, got ${kind(record)}; ${REMEDY}` });
  }
  return { lastRevision: revision, record: decodeRecord(JSON.stringify(record), source, revision, 'metadata key') };
}

/**
 * The revision a compare-and-set compares with: the stored record's, or 0 when
 * there is none — a cleared thread, and a corrupt entry too, so a record computed
 * from nothing can replace it.
 */
export function currentRevision(value: unknown, source: string): number {
  try {
    const read = readThreadRecordEntry(value, source);
    return read.record === undefined ? 0 : read.lastRevision;
  } catch {
    return 0;
  }
}

/** The last revision issued on the thread, readable from a corrupt entry too when its `revision` is (else 0). */
export function lastIssuedRevision(value: unknown): number {
  return isObject(value) && isCount(value.revision) ? value.revision : 0;
}

/**
 * The revision of the next save: above the last one issued on the thread, and at
 * least the wall clock in microseconds, so a thread deleted and made again under
 * the same id does not reissue revisions an old process may still hold.
 */
export function nextThreadRevision(last: number): number {
  return Math.max(last + 1, Date.now() * 1000);
}

/**
 * The entry for `record` at `revision`.
 *
 * @throws StoreError (operation `saveRecord`) naming `source` when the record is invalid or cannot be stored.
 */
export function threadRecordEntry(record: SessionRecord, revision: number, source: string): ThreadRecordEntry {
  return { revision, record: JSON.parse(encodeRecord(record, source)) as Record<string, unknown> };
}

function kind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
