import { CompactionError, hasMarker } from './compaction-error.js';

const marker = Symbol.for('compaction.error.summary-rejected');

/**
 * Why a generated summary was not accepted: `stale` is an update that echoes the previous
 * summary without the newly summarized messages, `oversized` a summary far over the size
 * the engine asked for, `timeout` a summarizer that did not answer within `summaryTimeoutMs`.
 */
export type SummaryRejection =
  | 'empty'
  | 'truncated'
  | 'missing-headings'
  | 'not-smaller'
  | 'continuation'
  | 'stale'
  | 'oversized'
  | 'timeout'
  | 'error';

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
