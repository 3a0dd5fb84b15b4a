import { CompactionError, hasMarker } from './compaction-error.js';

const marker = Symbol.for('compaction.error.summary-rejected');

/** Why a generated summary was not accepted. */
export type SummaryRejection = 'empty' | 'truncated' | 'missing-headings' | 'not-smaller' | 'continuation' | 'error';

/** The summarizer could not produce an acceptable summary; the engine falls back. */
export class SummaryRejectedError extends CompactionError {
  readonly [marker] = true;
  readonly reason: SummaryRejection;

  constructor({ reason, detail, cause }: { reason: SummaryRejection; detail: string; cause?: unknown }) {
    super('SummaryRejectedError', `summary rejected (${reason}): ${detail}`, { cause });
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is SummaryRejectedError {
    return hasMarker(error, marker);
  }
}
