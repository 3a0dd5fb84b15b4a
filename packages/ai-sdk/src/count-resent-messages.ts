import { countSameMessages, sameValue } from './count-same-messages.js';

type Record_ = Record<string, unknown>;

/**
 * How many of `incoming[from..to)` are, in order, the messages `known[0..]` —
 * what a conversation re-sent since its last call still holds — at a cost of a
 * few identity checks per message, however long the history.
 *
 * The AI SDK rebuilds the prompt on every call (new message and part objects)
 * from the application's messages, so the values inside — texts, tool inputs
 * and outputs, provider options — are the very same objects unless something
 * changed them. Messages before the last user message are therefore compared
 * field by field over the prompt's own fields (`role`, `content`,
 * `providerOptions`; of `text`, `reasoning`, `tool-call` and `tool-result`
 * parts every field the provider spec defines), each value by identity first
 * and deeply only when it is another object, so an edit anywhere in them — a
 * new text, input, output or option — is seen; a part of another type is
 * compared deeply. Keys the provider spec does not define are not read there.
 * From the last user message on, where a tool loop adds and a framework may
 * rewrite, messages are compared in full with `countSameMessages`.
 */
export function countResentMessages(
  incoming: readonly object[],
  from: number,
  to: number,
  known: readonly object[],
): number {
  const limit = Math.min(to - from, known.length);
  const older = Math.min(limit, lastUserIndex(incoming, from, to) - from);
  let count = 0;
  while (count < older && sameResent(incoming[from + count] as Record_, known[count] as Record_)) count += 1;
  if (count < older) return count;
  return count + countSameMessages(incoming, from + count, to, known.slice(count, limit));
}

/** The index of the last user message in `messages[from..to)`, or `from`. */
function lastUserIndex(messages: readonly object[], from: number, to: number): number {
  for (let index = to - 1; index > from; index -= 1) if ((messages[index] as Record_).role === 'user') return index;
  return from;
}

function same(left: unknown, right: unknown): boolean {
  return left === right || sameValue(left, right, 2);
}

function sameResent(message: Record_, other: Record_): boolean {
  if (message === other) return true;
  if (message.role !== other.role || !same(message.providerOptions, other.providerOptions)) return false;
  const content = message.content;
  const otherContent = other.content;
  if (typeof content === 'string' || !Array.isArray(content) || !Array.isArray(otherContent)) {
    return content === otherContent;
  }
  if (content.length !== otherContent.length) return false;
  for (let index = 0; index < content.length; index += 1) {
    if (!samePart(content[index] as Record_, otherContent[index] as Record_)) return false;
  }
  return true;
}

function samePart(part: Record_, other: Record_): boolean {
  if (part === other) return true;
  if (part.type !== other.type || !same(part.providerOptions, other.providerOptions)) return false;
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text === other.text;
    case 'tool-call':
      return (
        part.toolCallId === other.toolCallId &&
        part.toolName === other.toolName &&
        part.providerExecuted === other.providerExecuted &&
        same(part.input, other.input)
      );
    case 'tool-result':
      return (
        part.toolCallId === other.toolCallId && part.toolName === other.toolName && same(part.output, other.output)
      );
    default:
      return sameValue(part, other, 1);
  }
}
