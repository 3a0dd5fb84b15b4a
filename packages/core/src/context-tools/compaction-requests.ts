import type { CompactionSession } from '../session/types.js';

/** A manual compaction asked for by the model (`compact_context`) or the app, run before the next model call. */
export type CompactionRequest = {
  /** Passed to the summarizer as the focus of the summary. */
  instructions?: string;
};

const pending = new WeakMap<CompactionSession, CompactionRequest>();

/**
 * Asks `session` to compact before its next `prepare()`, not in the middle of
 * the current step. A second request before then replaces the first one's focus.
 */
export function requestCompaction(session: CompactionSession, request: CompactionRequest = {}): void {
  pending.set(session, request);
}

/** Takes (and clears) the request pending on `session`, if any. Called by the session's `prepare()`. */
export function takeCompactionRequest(session: CompactionSession): CompactionRequest | undefined {
  const request = pending.get(session);
  if (request !== undefined) pending.delete(session);
  return request;
}

/** Whether a compaction request waits on `session`. */
export function hasCompactionRequest(session: CompactionSession): boolean {
  return pending.has(session);
}
