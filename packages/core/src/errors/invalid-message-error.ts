import { CompactionError, hasMarker } from './compaction-error.js';

const marker = Symbol.for('compaction.error.invalid-message');

/** A message failed validation at the boundary (`parseMessages`). Nothing was stored. */
export class InvalidMessageError extends CompactionError {
  readonly [marker] = true;
  /** Index of the offending message in the input array. */
  readonly index: number;

  constructor({ index, problem }: { index: number; problem: string }) {
    super('InvalidMessageError', `message ${index}: ${problem}`);
    this.index = index;
  }

  static override isInstance(error: unknown): error is InvalidMessageError {
    return hasMarker(error, marker);
  }
}
