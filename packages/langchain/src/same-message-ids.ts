import type { BaseMessage } from '@langchain/core/messages';

/**
 * Whether the first `ids.length` messages of `now` have the ids `ids` (kept by
 * `releaseConversion` for a conversion whose core messages were all let go), each its own
 * non-empty string. One tight pass that reads one field of each restored message and its id,
 * and none of the objects they replace nor any text: a restored thread is a new object graph
 * every run, cold by the time the model node runs, so each field read is a cache miss (reading
 * each text's length as well measured +0.2–0.3 ms at 10,002 messages; see docs/decisions.md).
 *
 * It does not prove the content is the same, and need not: while the session holds the
 * history counted (it answered `asIs`) the model is sent the restored objects themselves,
 * so it sees any edit, and the provider's usage report counts it; core reads old messages
 * only when it loads them (a compaction, a recovery, the context tools), and then converts
 * them from these objects as a fresh conversion would. An edit under another id, a removal
 * or an insert fails the pass: the thread is converted again and core sees a branch at once.
 */
export function sameMessageIds(ids: readonly (string | undefined)[], now: readonly BaseMessage[]): boolean {
  const length = ids.length;
  if (now.length < length) return false;
  for (let index = 0; index < length; index += 1) {
    const id = now[index]!.id;
    if (typeof id !== 'string' || id.length === 0 || id !== ids[index]) return false;
  }
  return true;
}
