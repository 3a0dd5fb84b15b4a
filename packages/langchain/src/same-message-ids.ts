import type { BaseMessage } from '@langchain/core/messages';
import { isMessageClass } from './message-class-code.js';

/**
 * Whether the first `ids.length` messages of `now` have the ids `ids` and the classes
 * `classes` (kept by `releaseConversion` for a conversion whose core messages were all let
 * go), each id its own non-empty string (a kept message without one matches nothing). The class keeps a message the conversion would not
 * take (a legacy type under an old id) from being taken over unconverted: it is converted at
 * once, and fails there as before. One tight pass that reads the id and the class of each
 * restored message, and none of the objects they replace nor any text: a restored thread is a new object graph
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
export function sameMessageIds(
  ids: readonly (string | undefined)[],
  classes: Uint8Array,
  now: readonly BaseMessage[],
): boolean {
  const length = ids.length;
  if (now.length < length || classes.length < length) return false;
  for (let index = 0; index < length; index += 1) {
    const message = now[index]!;
    const id = ids[index];
    // A kept id is a non-empty string or undefined (matches nothing), so a restored id equal to it is that string.
    // Compared with `!==` alone, not read first: an id a checkpointer's JSON.parse internalized (≤ 10 characters in
    // V8) is the very string kept, and the comparison reads neither string (one cold line a message fewer).
    if (id === undefined || message.id !== id) return false;
    if (!isMessageClass(message.constructor, classes[index]!)) return false;
  }
  return true;
}
