import type { CompactionSession, Message, PreparedContext } from '@compaction/core';

/**
 * `prepare` for a kept session whose history is the first `heldLength` messages of
 * `history` (the caller checked it: the conversion grew in place): the new messages
 * are appended and the session prepares on what it holds — core need not compare
 * the whole list again.
 */
export async function prepareGrown(
  session: CompactionSession,
  history: readonly Message[],
  heldLength: number,
  signal?: AbortSignal,
): Promise<PreparedContext> {
  if (history.length > heldLength) await session.append(history.slice(heldLength));
  return session.prepare({ signal });
}
