import { CompactionError, hasMarker } from '../errors/compaction-error.js';

const marker = Symbol.for('compaction.error.invalid-tool-input');

/**
 * A context tool was called with arguments it does not take. Frameworks hand a
 * tool's error back to the model as the tool result, so the message says what
 * the tool takes.
 */
export class InvalidToolInputError extends CompactionError {
  readonly [marker] = true;
  /** The tool that was called. */
  readonly tool: string;

  constructor(tool: string, problem: string) {
    super('InvalidToolInputError', `${tool}: ${problem}`);
    this.tool = tool;
  }

  static override isInstance(error: unknown): error is InvalidToolInputError {
    return hasMarker(error, marker);
  }
}
