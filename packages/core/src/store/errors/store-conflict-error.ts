import { CompactionError, hasMarker } from '../../errors/compaction-error.js';

const marker = Symbol.for('compaction.error.store-conflict');

/**
 * `saveRecord` named the revision its record was computed from, and the store
 * had moved on: another process (or another session object) saved or cleared
 * the record in between. Nothing was written. Reload the record and the
 * history, re-apply what you appended, recompute, and save again.
 */
export class StoreConflictError extends CompactionError {
  readonly [marker] = true;
  /** The session concerned. */
  readonly sessionId: string;
  /** The file or key that holds its record. */
  readonly source: string;
  /** The revision the caller's record was computed from (0: no record). */
  readonly expectedRevision: number;
  /** The revision the store holds (0: no record). */
  readonly actualRevision: number;

  constructor({
    sessionId,
    source,
    expectedRevision,
    actualRevision,
  }: {
    sessionId: string;
    source: string;
    expectedRevision: number;
    actualRevision: number;
  }) {
    super(
      'StoreConflictError',
      `${source}: the record was computed from revision ${expectedRevision}, but the store holds revision ` +
        `${actualRevision} (another writer saved or cleared it). Nothing was written: reload the record and history, ` +
        'recompute and save again',
    );
    this.sessionId = sessionId;
    this.source = source;
    this.expectedRevision = expectedRevision;
    this.actualRevision = actualRevision;
  }

  static override isInstance(error: unknown): error is StoreConflictError {
    return hasMarker(error, marker);
  }
}
