import { CompactionError, hasMarker } from './compaction-error.js';

const marker = Symbol.for('compaction.error.invalid-state');

/** A stored compaction state or history file could not be read or failed validation. */
export class InvalidStateError extends CompactionError {
  readonly [marker] = true;
  /** The file or key that held the bad data, when there is one. */
  readonly source: string | undefined;

  constructor({ problem, source, cause }: { problem: string; source?: string; cause?: unknown }) {
    super('InvalidStateError', source ? `${source}: ${problem}` : problem, { cause });
    this.source = source;
  }

  static override isInstance(error: unknown): error is InvalidStateError {
    return hasMarker(error, marker);
  }
}
