import { CompactionError } from '@compaction/core';

const marker = Symbol.for('compaction.demo.error.replay-exhausted');

/** A replay model was called more often than the recording has assistant replies. */
export class ReplayExhaustedError extends CompactionError {
  readonly [marker] = true;
  readonly replies: number;

  constructor({ replies }: { replies: number }) {
    super(
      'ReplayExhaustedError',
      replies === 0
        ? 'the recording has no assistant replies to replay'
        : `the replay model was called more often than the recording has replies (${replies}); pass loop: true to start over`,
    );
    this.replies = replies;
  }

  static override isInstance(error: unknown): error is ReplayExhaustedError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
