import { CompactionError, hasMarker } from '../../errors/compaction-error.js';

const marker = Symbol.for('compaction.error.store');

/** The store operation that failed. */
export type StoreOperation = 'loadHistory' | 'appendHistory' | 'loadRecord' | 'saveRecord' | 'clear';

/**
 * A store could not do what was asked: the data cannot be stored as given (a
 * `BigInt`, a cycle, a `Map` in a tool output), or the file, database or server
 * failed (disk full, read-only, connection lost, lock held too long). Nothing
 * was written: an append either stored all its messages or none, and a record
 * is either the new one or the old one.
 */
export class StoreError extends CompactionError {
  readonly [marker] = true;
  /** The file or key concerned. */
  readonly source: string;
  /** What the store was doing. */
  readonly operation: StoreOperation;

  constructor({
    operation,
    source,
    problem,
    cause,
  }: {
    operation: StoreOperation;
    source: string;
    problem: string;
    cause?: unknown;
  }) {
    super('StoreError', `${operation} ${source}: ${problem}`, { cause });
    this.operation = operation;
    this.source = source;
  }

  /**
   * What a store throws for a failure of its file, database or server during
   * `operation`: a `CompactionError` (typed already, e.g. a conflict or corrupt
   * data) as it is, anything else as a `StoreError` naming `source` and saying
   * nothing was changed.
   */
  static wrap(error: unknown, operation: StoreOperation, source: string): CompactionError {
    if (CompactionError.isInstance(error)) return error;
    return new StoreError({
      operation,
      source,
      problem: `${(error as Error).message}. Nothing was changed`,
      cause: error,
    });
  }

  static override isInstance(error: unknown): error is StoreError {
    return hasMarker(error, marker);
  }
}
