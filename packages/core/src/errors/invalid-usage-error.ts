import { CompactionError, hasMarker } from './compaction-error.js';

const marker = Symbol.for('compaction.error.invalid-usage');

/** A usage report (`session.recordUsage`) holds a value no provider reports. Nothing was recorded. */
export class InvalidUsageError extends CompactionError {
  readonly [marker] = true;
  /** The field at fault, e.g. `inputTokens`. */
  readonly field: string;

  constructor({ field, problem }: { field: string; problem: string }) {
    super('InvalidUsageError', `usage.${field}: ${problem}`);
    this.field = field;
  }

  static override isInstance(error: unknown): error is InvalidUsageError {
    return hasMarker(error, marker);
  }
}
