import { CompactionError } from '@compaction/core';

const marker = Symbol.for('compaction.demo.error.cli');

/**
 * A mistake a user of the demo CLI can make (missing file, unknown format, bad flag,
 * unreachable endpoint): printed as one line on stderr, exit code 1, no stack trace.
 */
export class CliError extends CompactionError {
  readonly [marker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super('CliError', message, options);
  }

  static override isInstance(error: unknown): error is CliError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
