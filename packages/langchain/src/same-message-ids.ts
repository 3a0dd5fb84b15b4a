import type { BaseMessage } from '@langchain/core/messages';

type Fields = { id?: unknown; content?: { length?: number } };

/**
 * Whether the first `before.length` messages of `now` can stand for `before` in a
 * conversion whose core messages were all let go (`releaseConversion`): each is the same
 * object, or one of the same class with the same id (a non-empty string) and content of
 * the same length (a text's length is in the string's header; blocks by their count).
 * One tight pass that reads three fields of each message and none of its text.
 *
 * It does not prove the content is the same, and need not: while the session holds the
 * history counted (it answered `asIs`) the model is sent the restored objects themselves,
 * so it sees any edit, and the provider's usage report counts it; core reads old messages
 * only when it loads them (a compaction, a recovery, the context tools), and then converts
 * them from these objects as a fresh conversion would. An edit under another id, a removal
 * or an insert fails the pass: the thread is converted again and core sees a branch at once.
 */
export function sameMessageIds(before: readonly BaseMessage[], now: readonly BaseMessage[]): boolean {
  const length = before.length;
  if (now.length < length) return false;
  for (let index = 0; index < length; index += 1) {
    const a = before[index] as unknown as Fields;
    const b = now[index] as unknown as Fields;
    if (a === b) continue;
    const id = b.id;
    if (typeof id !== 'string' || id.length === 0 || id !== a.id) return false;
    if (a.constructor !== b.constructor || a.content?.length !== b.content?.length) return false;
  }
  return true;
}
