import { sameContent } from '@compaction/core/internal';
import type { BaseMessage } from '@langchain/core/messages';
import { COMPACTION_KWARG } from './compaction-kwarg.js';

type Fields = {
  id?: string;
  type?: string;
  role?: string;
  name?: string;
  status?: string;
  content?: unknown;
  tool_calls?: { id?: string; name: string; args?: unknown }[];
  tool_call_id?: string;
  usage_metadata?: { input_tokens?: number; output_tokens?: number };
  additional_kwargs?: Record<string, unknown>;
};

/**
 * Whether `now` can stand for `before` in a conversion: another object a
 * checkpointer or a chat-history backend gave back for the same message. It
 * compares every field the conversion to core reads — class, `id`, `type`, a
 * `ChatMessage`'s `role`, `name`, `status`, `tool_call_id`, the content (texts and blocks whole), the tool
 * calls with their arguments, the input and output tokens of `usage_metadata` and
 * core's own `additional_kwargs` entry, values by core's `sameContent` — so an edit
 * anywhere the conversion looks is seen, and nothing else is read. Whole texts cost
 * little here: comparing two strings is one memory compare, and the pass over a
 * restored thread is bound by reading each message once. The id and the content
 * come first (an edit most often shows there), and a text is compared directly,
 * without a call into the generic comparison.
 */
export function sameMessageShape(before: BaseMessage, now: BaseMessage): boolean {
  if (before === now) return true;
  const a = before as unknown as Fields;
  const b = now as unknown as Fields;
  if (a.id !== b.id) return false;
  const content = a.content;
  const other = b.content;
  // Two texts: equal or not by one comparison; blocks: value by value.
  if (content !== other && (typeof content === 'string' || !sameContent(content, other))) return false;
  return (
    a.type === b.type &&
    a.role === b.role &&
    Object.getPrototypeOf(before) === Object.getPrototypeOf(now) &&
    a.tool_call_id === b.tool_call_id &&
    a.name === b.name &&
    a.status === b.status &&
    sameToolCalls(a.tool_calls, b.tool_calls) &&
    sameUsage(a.usage_metadata, b.usage_metadata) &&
    sameKwarg(a.additional_kwargs, b.additional_kwargs)
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

/** The two figures the conversion takes from `usage_metadata` (`usageOf`): present or not, and their values. */
function sameUsage(a: Fields['usage_metadata'], b: Fields['usage_metadata']): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.input_tokens === b.input_tokens && a.output_tokens === b.output_tokens;
}

function sameKwarg(a: Fields['additional_kwargs'], b: Fields['additional_kwargs']): boolean {
  const left = a?.[COMPACTION_KWARG];
  const right = b?.[COMPACTION_KWARG];
  return left === right || sameContent(left, right);
}
