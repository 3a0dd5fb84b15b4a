import type { BaseMessage } from '@langchain/core/messages';

/** Texts up to this many characters are compared whole by {@link sameMessageShape}; longer ones by length. */
export const WHOLE_TEXT_CHARS = 256;

type Fields = {
  id?: string;
  type?: string;
  content?: unknown;
  tool_calls?: { id?: string; name: string }[];
  tool_call_id?: string;
};

/**
 * Whether `now` can stand for `before` in a conversion: another object a
 * checkpointer or a chat-history backend gave back for the same message. The same
 * class, `id`, `type` and `tool_call_id`, tool calls with the same ids and names,
 * and content of the same shape — texts up to {@link WHOLE_TEXT_CHARS} characters
 * compared whole, longer ones by length, content blocks by count, type and text.
 * It reads a few fields of each message, not its long texts (a thread of 10,000
 * messages holds megabytes; reading them costs milliseconds): the caller sends `now`
 * itself, so an edit it does not see (inside a long text of the same length, in tool arguments)
 * still reaches the model; only core's copy of that message (its token count, and
 * what a summary written before the next usage report reads) stays what it was.
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
    sameContentShape(a.content, b.content) &&
    sameToolCalls(a.tool_calls, b.tool_calls)
  );
}

function sameContentShape(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'string') return typeof b === 'string' && sameText(a, b);
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    const blockA = a[index] as { type?: unknown; text?: unknown } | null;
    const blockB = b[index] as { type?: unknown; text?: unknown } | null;
    if (blockA === blockB) continue;
    if (typeof blockA !== 'object' || typeof blockB !== 'object' || blockA === null || blockB === null) return false;
    if (blockA.type !== blockB.type) return false;
    const textA = blockA.text;
    const textB = blockB.text;
    if (typeof textA === 'string' ? typeof textB !== 'string' || !sameText(textA, textB) : textA !== textB)
      return false;
  }
  return true;
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return a.length > WHOLE_TEXT_CHARS || a === b;
}

function sameToolCalls(a: Fields['tool_calls'], b: Fields['tool_calls']): boolean {
  if (a === b) return true;
  const callsA = a ?? [];
  const callsB = b ?? [];
  if (callsA.length !== callsB.length) return false;
  for (let index = 0; index < callsA.length; index += 1) {
    if (callsA[index]!.id !== callsB[index]!.id || callsA[index]!.name !== callsB[index]!.name) return false;
  }
  return true;
}
