import { sameContent } from '@compaction/core/internal';
import type { BaseMessage } from '@langchain/core/messages';
import { COMPACTION_KWARG } from './compaction-kwarg.js';

type Fields = {
  id?: string;
  type?: string;
  name?: string;
  status?: string;
  content?: unknown;
  tool_calls?: { id?: string; name: string; args?: unknown }[];
  tool_call_id?: string;
  usage_metadata?: unknown;
  additional_kwargs?: Record<string, unknown>;
};

/**
 * Whether `now` can stand for `before` in a conversion: another object a
 * checkpointer or a chat-history backend gave back for the same message. It
 * compares every field the conversion to core reads — class, `id`, `type`,
 * `name`, `status`, `tool_call_id`, the content (texts and blocks whole), the tool
 * calls with their arguments, `usage_metadata` and core's own `additional_kwargs`
 * entry, values by core's `sameContent` — so an edit anywhere the conversion looks
 * is seen, and nothing else is read. Whole texts cost little here: comparing two strings is one memory compare,
 * and the pass over a restored thread is bound by reading each message once.
 */
export function sameMessageShape(before: BaseMessage, now: BaseMessage): boolean {
  if (before === now) return true;
  const a = before as unknown as Fields;
  const b = now as unknown as Fields;
  return (
    a.id === b.id &&
    a.type === b.type &&
    Object.getPrototypeOf(before) === Object.getPrototypeOf(now) &&
    a.tool_call_id === b.tool_call_id &&
    a.name === b.name &&
    a.status === b.status &&
    sameContent(a.content, b.content) &&
    sameToolCalls(a.tool_calls, b.tool_calls) &&
    sameContent(a.usage_metadata, b.usage_metadata) &&
    sameContent(a.additional_kwargs?.[COMPACTION_KWARG], b.additional_kwargs?.[COMPACTION_KWARG])
  );
}

function sameToolCalls(a: Fields['tool_calls'], b: Fields['tool_calls']): boolean {
  if (a === b) return true;
  const callsA = a ?? [];
  const callsB = b ?? [];
  if (callsA.length !== callsB.length) return false;
  for (let index = 0; index < callsA.length; index += 1) {
    const callA = callsA[index]!;
    const callB = callsB[index]!;
    if (callA.id !== callB.id || callA.name !== callB.name || !sameContent(callA.args, callB.args)) return false;
  }
  return true;
}
