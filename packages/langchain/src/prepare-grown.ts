import type { CompactionSession, HistorySource, Message, PreparedContext } from '@compaction/core';
import { conversionSource } from './conversion-source.js';

/**
 * `prepare` over a conversion's core messages (`history`), given to the session as a
 * source ({@link conversionSource}). With `previous` — the source of the call before,
 * whose messages are the first `previous.length` of `history` (the caller checked it:
 * the conversion grew in place, or took over restored objects of the same messages) —
 * the session compares nothing again and reads only the new messages. Returns the
 * prepared context and the source, for the next call's `previous`.
 */
export async function prepareGrown(
  session: CompactionSession,
  history: readonly Message[],
  previous: HistorySource | undefined,
  signal?: AbortSignal,
): Promise<{ prepared: PreparedContext; source: HistorySource }> {
  const source = conversionSource(history, previous ? { source: previous, unchanged: previous.length } : undefined);
  const prepared = await session.prepare({ history: source, ...(signal ? { signal } : {}) });
  return { prepared, source };
}
