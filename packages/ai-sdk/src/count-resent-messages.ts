import { sameContent } from '@compaction/core/internal';

type Fields = Record<string, unknown>;

/**
 * The messages a conversation sent, as {@link countResentMessages} compares the
 * next call's with them: the messages as first seen, and the values of each that
 * a provider reads, flattened into one array — per message its `role`,
 * `providerOptions` and content (a string, or the number of parts), per part its
 * `type`, `providerOptions` and the fields the provider spec defines for it
 * (`text`; `toolCallId`, `toolName`, `input`, `providerExecuted`; `toolCallId`,
 * `toolName`, `output`), or the part itself for other part types. Build it with
 * {@link sentMessages} and {@link rememberSent}, cut it with {@link keepSent}.
 */
export type SentMessages = {
  /** The messages, as first seen. */
  readonly messages: object[];
  /** The values of every message, one after the other. */
  readonly values: unknown[];
  /** `values.length` after each message. */
  readonly ends: number[];
};

/**
 * Estimated bytes {@link SentMessages} holds a message besides the message itself: its
 * flat values (about eight slots of 8 bytes with one or two parts) and its end index.
 */
export const SENT_MESSAGE_BYTES = 96;

/** Marks content that is not an array of parts (a string): the value after it is the content. */
const NOT_PARTS = Symbol('not parts');

/** Marks a part that is not an object (malformed): the value after it is the part. */
const NOT_A_PART = Symbol('not a part');

/** An empty {@link SentMessages}, or one holding `messages`. */
export function sentMessages(messages: readonly object[] = []): SentMessages {
  const sent: SentMessages = { messages: [], values: [], ends: [] };
  for (const message of messages) rememberSent(sent, message);
  return sent;
}

/** Adds `message` after the messages `sent` holds. */
export function rememberSent(sent: SentMessages, message: object): void {
  sent.messages.push(message);
  pushValues(sent.values, message as Fields);
  sent.ends.push(sent.values.length);
}

/**
 * A new {@link SentMessages} holding the first `count` messages of `sent` (which is
 * left as it is: a conversion that was handed out keeps what it compared with).
 */
export function sentPrefix(sent: SentMessages, count: number): SentMessages {
  const kept = Math.max(0, Math.min(count, sent.messages.length));
  return {
    messages: sent.messages.slice(0, kept),
    values: sent.values.slice(0, kept === 0 ? 0 : sent.ends[kept - 1]!),
    ends: sent.ends.slice(0, kept),
  };
}

/** Keeps the first `count` messages of `sent`. */
export function keepSent(sent: SentMessages, count: number): void {
  if (count >= sent.messages.length) return;
  sent.messages.length = count;
  sent.ends.length = count;
  sent.values.length = count === 0 ? 0 : sent.ends[count - 1]!;
}

/**
 * How many of `incoming[from..to)` are, in order, the messages `sent` holds —
 * what a conversation re-sent since its last call still holds — at a cost of a
 * few identity checks per message, however long the history.
 *
 * The AI SDK rebuilds the prompt on every call (new message and part objects)
 * from the application's messages, so the values inside — texts, tool inputs
 * and outputs, provider options — are the very same objects unless something
 * changed them. Messages before the last user message are therefore compared
 * value by value with the flat values `sent` keeps (one array read in order, no
 * second object graph to walk): each by identity first, and with
 * {@link sameContent} only when it is another object (which then takes its
 * place, so a prompt rebuilt from copies pays that once). An edit anywhere in
 * them — a new text, tool input, tool output or provider option, however deep —
 * gives another value and is seen; keys the provider spec does not define are
 * not read there (a provider does not read them either). From the last user
 * message on, where a tool loop adds and a framework may rewrite, messages are
 * compared in full with `sameContent`. Values changed in place inside a shared
 * object are not seen (nothing short of hashing every message could).
 */
export function countResentMessages(incoming: readonly object[], from: number, to: number, sent: SentMessages): number {
  const limit = Math.min(to - from, sent.messages.length);
  const older = Math.min(limit, lastUserIndex(incoming, from, to) - from);
  let same = countSameValues(incoming, from, older, sent.values);
  if (same < older) return same;
  while (same < limit && sameContent(incoming[from + same], sent.messages[same])) same += 1;
  return same;
}

/**
 * How many of `incoming[from..from + older)` have, in order, the values laid out
 * in `values` (see `pushValues`). It runs over every old message on every call,
 * so the loop is lean: identity checks inline, no call a message, nothing made.
 * Only a message where one of them fails goes to {@link matchValues}, which also
 * accepts a value equal in content but another object (and keeps it instead).
 */
function countSameValues(incoming: readonly object[], from: number, older: number, values: unknown[]): number {
  let at = 0;
  let count = 0;
  for (; count < older; count += 1) {
    const message = incoming[from + count] as Fields;
    let next: number;
    try {
      next = identicalValues(message, values, at);
    } catch {
      next = -1; // a malformed message (null, or a null part): matchValues tells
    }
    if (next < 0 && typeof message === 'object' && message !== null) next = matchValues(message, values, at);
    if (next < 0) break;
    at = next;
  }
  return count;
}

/**
 * Whether `message` has the very values `values[at..]` (identity only; see
 * {@link matchValues} for the rest): the index after them, or -1. Reads
 * without checking types (string content has no parts to match; a null
 * message or part throws and the caller treats it as a mismatch).
 */
function identicalValues(message: Fields, values: unknown[], at: number): number {
  const content = message.content as readonly unknown[];
  if (message.role !== values[at] || message.providerOptions !== values[at + 1]) return -1;
  const parts = content.length;
  if (values[at + 2] !== parts) return -1;
  let next = at + 3;
  for (let index = 0; index < parts; index += 1) {
    const part = content[index] as Fields;
    const type = part.type;
    if (type !== values[next] || part.providerOptions !== values[next + 1]) return -1;
    if (type === 'text') {
      if (part.text !== values[next + 2]) return -1;
      next += 3;
    } else if (type === 'tool-result') {
      if (
        part.toolCallId !== values[next + 2] ||
        part.toolName !== values[next + 3] ||
        part.output !== values[next + 4]
      )
        return -1;
      next += 5;
    } else if (type === 'tool-call') {
      if (
        part.toolCallId !== values[next + 2] ||
        part.toolName !== values[next + 3] ||
        part.input !== values[next + 4] ||
        part.providerExecuted !== values[next + 5]
      )
        return -1;
      next += 6;
    } else if (type === 'reasoning') {
      if (part.text !== values[next + 2]) return -1;
      next += 3;
    } else return -1; // the rest (files, custom parts, …): matchValues
  }
  return next;
}

/** The index of the last user message in `messages[from..to)`, or `from`. */
function lastUserIndex(messages: readonly object[], from: number, to: number): number {
  for (let index = to - 1; index > from; index -= 1)
    if ((messages[index] as Fields | null)?.role === 'user') return index;
  return from;
}

function pushValues(values: unknown[], message: Fields): void {
  if (!isRecord(message)) {
    values.push(NOT_A_PART, message); // malformed: never matched (countResentMessages stops at it)
    return;
  }
  values.push(message.role, message.providerOptions);
  const content = message.content;
  if (!Array.isArray(content)) {
    values.push(NOT_PARTS, content);
    return;
  }
  values.push(content.length);
  for (const part of content as unknown[]) {
    if (!isRecord(part)) {
      values.push(NOT_A_PART, part);
      continue;
    }
    values.push(part.type, part.providerOptions);
    switch (part.type) {
      case 'text':
      case 'reasoning':
        values.push(part.text);
        break;
      case 'tool-call':
        values.push(part.toolCallId, part.toolName, part.input, part.providerExecuted);
        break;
      case 'tool-result':
        values.push(part.toolCallId, part.toolName, part.output);
        break;
      default:
        values.push(part);
    }
  }
}

/**
 * Whether `message` has the values `values[at..]` (laid out as `pushValues` does):
 * the index after them, or -1. A value equal in content but another object
 * replaces the kept one.
 */
function matchValues(message: Fields, values: unknown[], at: number): number {
  if (
    message.role !== values[at] ||
    (message.providerOptions !== values[at + 1] && !settle(message.providerOptions, values, at + 1))
  )
    return -1;
  const content = message.content;
  if (!Array.isArray(content))
    return values[at + 2] === NOT_PARTS && (content === values[at + 3] || settle(content, values, at + 3))
      ? at + 4
      : -1;
  if (values[at + 2] !== content.length) return -1;
  let next = at + 3;
  for (let index = 0; index < content.length; index += 1) {
    const part = content[index] as unknown;
    if (!isRecord(part)) {
      if (values[next] !== NOT_A_PART || values[next + 1] !== part) return -1;
      next += 2;
      continue;
    }
    const type = part.type;
    if (
      type !== values[next] ||
      (part.providerOptions !== values[next + 1] && !settle(part.providerOptions, values, next + 1))
    )
      return -1;
    next += 2;
    switch (type) {
      case 'text':
      case 'reasoning':
        if (part.text !== values[next] && !settle(part.text, values, next)) return -1;
        next += 1;
        break;
      case 'tool-call':
        if (
          part.toolCallId !== values[next] ||
          part.toolName !== values[next + 1] ||
          (part.input !== values[next + 2] && !settle(part.input, values, next + 2)) ||
          part.providerExecuted !== values[next + 3]
        ) {
          return -1;
        }
        next += 4;
        break;
      case 'tool-result':
        if (
          part.toolCallId !== values[next] ||
          part.toolName !== values[next + 1] ||
          (part.output !== values[next + 2] && !settle(part.output, values, next + 2))
        ) {
          return -1;
        }
        next += 3;
        break;
      default:
        if (part !== values[next] && !settle(part, values, next)) return -1;
        next += 1;
    }
  }
  return next;
}

/**
 * Whether `value`, not `values[at]` itself, has its content; an equal other object takes
 * its place. Called only on a mismatch, so the identity checks stay inline.
 */
function settle(value: unknown, values: unknown[], at: number): boolean {
  const kept = values[at];
  if (typeof value !== 'object' || !sameContent(value, kept)) return false;
  values[at] = value;
  return true;
}

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null;
}
