import { sameContent } from '@compaction/core/internal';
import {
  isRecord,
  NOT_A_PART,
  NOT_PARTS,
  onlySpecKeys,
  refsCount,
  type SentMessages,
  STRIDE,
  unpackValues,
  WHOLE,
} from './sent-messages.js';

export {
  keepSent,
  rememberSent,
  SENT_MESSAGE_BYTES,
  type SentMessages,
  sentMessages,
  sentPrefix,
} from './sent-messages.js';

type Fields = Record<string, unknown>;

/**
 * How many of `incoming[from..to)` are, in order, the messages `sent` holds —
 * what a conversation re-sent since its last call still holds — at a cost of a
 * few identity checks per message, however long the history.
 *
 * The AI SDK rebuilds the prompt on every call (new message and part objects)
 * from the application's messages, so the values inside — texts, tool inputs
 * and outputs, provider options — are the very same objects unless something
 * changed them. Messages before the last user message are therefore compared
 * value by value with the packed values `sent` keeps (a shape code and the
 * references, read in order; no second object graph to walk): each by identity
 * first, and with {@link sameContent} only when it is another object (which then
 * takes its place, so a prompt rebuilt from copies pays that once). An edit
 * anywhere in them — a new text, tool input, tool output or provider option,
 * however deep — gives another value and is seen; keys the provider spec does
 * not define are not read there (a provider does not read them either), except in
 * a message that had one when it was first sent: that one is kept whole and
 * compared in full, every key, as its content id reads it. From the
 * last user message on, where a tool loop adds and a framework may rewrite,
 * messages are compared in full with `sameContent` against the originals `sent`
 * keeps; where it no longer keeps one (the last user message moved back before
 * where it was), by value, and a message or part with a key the spec does not
 * define counts as different. Values changed in place inside a shared object are
 * not seen (nothing short of hashing every message could).
 */
export function countResentMessages(incoming: readonly object[], from: number, to: number, sent: SentMessages): number {
  const limit = Math.min(to - from, sent.count);
  const older = Math.min(limit, lastUserIndex(incoming, from, to) - from);
  let same = countSameValues(incoming, from, older, sent);
  if (same < older) return same;
  let at = scannedTo;
  while (same < limit && sameAsSent(incoming[from + same], sent, same, at)) {
    at += refsCount(sent.table[same * STRIDE]!);
    same += 1;
  }
  return same;
}

/**
 * The shape codes {@link countResentMessages} checks whole, without decoding their fields
 * (written there as literals: a constant read from a module is a load in the loop). They
 * follow from `sent-messages.ts`'s layout: role bits 0–1, part count bits 3–5, each part's
 * kind from bit 6 (6 bits a part); no provider options, `providerExecuted` not set.
 */
export const COMMON_CODES = {
  /** A system message, one text part: role 0, one part, kind text. */
  systemText: 8,
  /** A user message, one text part: role 1, one part, kind text. */
  userText: 9,
  /** An assistant message, one text part: role 2, one part, kind text. */
  assistantText: 10,
  /** An assistant message, one tool call: role 2, one part, kind tool call (2 << 6). */
  toolCall: 138,
  /** A tool message, one tool result: role 3, one part, kind tool result (3 << 6). */
  toolResult: 203,
  /** An assistant message, a text part then a tool call: role 2, two parts, kinds text and tool call (2 << 12). */
  textThenToolCall: 8210,
} as const;

/** Where the values after the messages {@link countSameValues} counted start in `refs`. */
let scannedTo = 0;

/**
 * Whether `message` has the content of message `index` of `sent` (whose values start at
 * `refs[at]`), compared in full where the original is kept.
 */
function sameAsSent(message: unknown, sent: SentMessages, index: number, at: number): boolean {
  if (index >= sent.originalsFrom) return sameContent(message, sent.originals[index - sent.originalsFrom]);
  // A message with a key the spec does not define matches only one kept whole (compared in full).
  return (
    isRecord(message) &&
    (onlySpecKeys(message) || sent.refs[at] === WHOLE) &&
    matchPacked(message, sent, index, at) >= 0
  );
}

/**
 * How many of `incoming[from..from + older)` have, in order, the values `sent` keeps.
 * It runs over every old message on every call, so the loop is lean: identity checks
 * inline against the shape code and the references (in the loop itself: a call a message
 * measured as much as the checks), nothing made. Only a message where one of them fails
 * goes to {@link matchPacked}, which also accepts a value equal in content but another
 * object (and keeps it instead); a malformed message (null, or a null part) throws inside
 * the `try` and goes there too.
 */
function countSameValues(incoming: readonly object[], from: number, older: number, sent: SentMessages): number {
  const table = sent.table;
  const refs = sent.refs;
  const names = sent.names;
  let at = 0;
  let count = 0;
  scan: while (count < older) {
    try {
      for (; count < older; count += 1) {
        const message = incoming[from + count] as Fields;
        const code = table[count * STRIDE]!;
        let next = -1;
        // The shapes of nearly every message of a conversation, whole: one text part, one tool
        // call or result, a text and a tool call, no provider options. Their codes are known
        // (COMMON_CODES, checked against sentMessages by a test), so each is a few identity
        // checks in a row, no field decoded; any other code is decoded field by field.
        switch (code) {
          case 9: // user, one text part
          case 10: // assistant, one text part
          case 8: {
            // system, one text part
            const content = message.content as readonly Fields[];
            const part = content[0] as Fields;
            if (
              message.role === (code === 9 ? 'user' : code === 10 ? 'assistant' : 'system') &&
              message.providerOptions === undefined &&
              content.length === 1 &&
              part.type === 'text' &&
              part.providerOptions === undefined &&
              part.text === refs[at]
            )
              next = at + 1;
            break;
          }
          case 203: {
            // tool, one tool result
            const content = message.content as readonly Fields[];
            const part = content[0] as Fields;
            if (
              message.role === 'tool' &&
              message.providerOptions === undefined &&
              content.length === 1 &&
              part.type === 'tool-result' &&
              part.providerOptions === undefined &&
              part.toolCallId === refs[at] &&
              part.toolName === names[(table[count * STRIDE + 1]! & 255) - 1] &&
              (part.output === refs[at + 1] || settleContentOutput(part.output, refs, at + 1))
            )
              next = at + 2;
            break;
          }
          case 138: {
            // assistant, one tool call (`providerExecuted` not set)
            const content = message.content as readonly Fields[];
            const part = content[0] as Fields;
            if (
              message.role === 'assistant' &&
              message.providerOptions === undefined &&
              content.length === 1 &&
              part.type === 'tool-call' &&
              part.providerOptions === undefined &&
              part.providerExecuted === undefined &&
              part.toolCallId === refs[at] &&
              part.input === refs[at + 1] &&
              part.toolName === names[(table[count * STRIDE + 1]! & 255) - 1]
            )
              next = at + 2;
            break;
          }
          case 8210: {
            // assistant, a text part then a tool call (`providerExecuted` not set)
            const content = message.content as readonly Fields[];
            const text = content[0] as Fields;
            const call = content[1] as Fields;
            if (
              message.role === 'assistant' &&
              message.providerOptions === undefined &&
              content.length === 2 &&
              text.type === 'text' &&
              text.providerOptions === undefined &&
              text.text === refs[at] &&
              call.type === 'tool-call' &&
              call.providerOptions === undefined &&
              call.providerExecuted === undefined &&
              call.toolCallId === refs[at + 1] &&
              call.input === refs[at + 2] &&
              call.toolName === names[((table[count * STRIDE + 1]! >>> 8) & 255) - 1]
            )
              next = at + 3;
            break;
          }
          default:
            // The code's fields as literals (sent-messages.ts: role bits 0–1, message options bit 2,
            // part count bits 3–5, then 6 bits a part: kind 0–2, options bit 3, providerExecuted 4–5).
            // One pass (a loop only to be left with `break identical` at the first difference).
            identical: for (;;) {
              const parts = (code >>> 3) & 7;
              if (parts === 7) {
                next = identicalValues(message, refs, at); // GENERIC
                break;
              }
              const role = code & 3;
              if (message.role !== (role === 1 ? 'user' : role === 2 ? 'assistant' : role === 3 ? 'tool' : 'system'))
                break;
              let ref = at;
              if (code & 4) {
                if (message.providerOptions !== refs[ref]) break;
                ref += 1;
              } else if (message.providerOptions !== undefined) break;
              const content = message.content as readonly unknown[];
              if (parts === 5) {
                // STRING_CONTENT
                if (content === refs[ref]) next = ref + 1;
                break;
              }
              // (String content under a parts code: its characters have no `type`, so a part check fails.)
              if (content.length !== parts) break;
              const toolNames = table[count * STRIDE + 1]!;
              for (let index = 0; index < parts; index += 1) {
                const part = content[index] as Fields;
                const bits = code >>> (6 + 6 * index);
                if (bits & 8) {
                  if (part.providerOptions !== refs[ref]) break identical;
                  ref += 1;
                } else if (part.providerOptions !== undefined) break identical;
                const kind = bits & 7;
                if (kind === 0) {
                  if (part.type !== 'text' || part.text !== refs[ref]) break identical;
                  ref += 1;
                } else if (kind === 3) {
                  if (
                    part.type !== 'tool-result' ||
                    part.toolCallId !== refs[ref] ||
                    part.toolName !== names[((toolNames >>> (8 * index)) & 255) - 1] ||
                    (part.output !== refs[ref + 1] && !settleContentOutput(part.output, refs, ref + 1))
                  )
                    break identical;
                  ref += 2;
                } else if (kind === 2) {
                  const executed = (bits >>> 4) & 3;
                  if (
                    part.type !== 'tool-call' ||
                    part.toolCallId !== refs[ref] ||
                    part.input !== refs[ref + 1] ||
                    part.toolName !== names[((toolNames >>> (8 * index)) & 255) - 1] ||
                    part.providerExecuted !== (executed === 0 ? undefined : executed === 1)
                  )
                    break identical;
                  ref += 2;
                } else if (kind === 1) {
                  if (part.type !== 'reasoning' || part.text !== refs[ref]) break identical;
                  ref += 1;
                } else {
                  // OTHER (files, custom parts, …: the AI SDK makes another object each call,
                  // around the same values): compared in content here, and kept in its place.
                  if (part !== refs[ref] && !settle(part, refs, ref)) break identical;
                  ref += 1;
                }
              }
              next = ref;
              break;
            }
        }
        if (next < 0) next = matchPacked(message, sent, count, at);
        if (next < 0) break scan;
        at = next;
      }
    } catch {
      // A malformed message (null, or a null part) threw: it matches only what was kept as it.
      const message = incoming[from + count];
      const next = isRecord(message) ? matchPacked(message, sent, count, at) : -1;
      if (next < 0) break;
      at = next;
      count += 1;
    }
  }
  scannedTo = at;
  return count;
}

/**
 * Whether `message` has the very values `values[at..]` of a message kept value by value
 * (identity only; see {@link matchValues} for the rest): the index after them, or -1.
 */
function identicalValues(message: Fields, values: unknown[], at: number): number {
  if (values[at] === WHOLE) return message === values[at + 1] ? at + 2 : -1;
  const content = message.content as readonly unknown[];
  if (message.role !== values[at] || message.providerOptions !== values[at + 1]) return -1;
  const parts = content.length;
  if (values[at + 2] !== parts) return -1;
  let next = at + 3;
  for (let index = 0; index < parts; index += 1) {
    const part = content[index] as Fields;
    const type = part.type;
    if (type !== values[next] || part.providerOptions !== values[next + 1]) return -1;
    if (type === 'text' || type === 'reasoning') {
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
    } else return -1; // the rest (files, custom parts, …): matchValues
  }
  return next;
}

/**
 * Whether `message` has the values of message `index` of `sent` (starting at `refs[start]`),
 * equal objects accepted (and kept in place of the kept ones): the index in `refs` after the
 * message, or -1.
 */
function matchPacked(message: Fields, sent: SentMessages, index: number, start: number): number {
  const { values, slots } = unpackValues(sent, index, start);
  if (matchValues(message, values, 0) < 0) return -1;
  for (let at = 0; at < slots.length; at += 1) if (slots[at]! >= 0) sent.refs[slots[at]!] = values[at];
  return start + refsCount(sent.table[index * STRIDE]!);
}

/** The index of the last user message in `messages[from..to)`, or `from`. */
export function lastUserIndex(messages: readonly object[], from: number, to: number): number {
  for (let index = to - 1; index > from; index -= 1)
    if ((messages[index] as Fields | null)?.role === 'user') return index;
  return from;
}

/**
 * Whether `message` has the values `values[at..]` (laid out as `pushValues` does):
 * the index after them, or -1. A value equal in content but another object
 * replaces the kept one.
 */
function matchValues(message: Fields, values: unknown[], at: number): number {
  // A message kept whole is compared in full, every key (as its content id reads it).
  if (values[at] === WHOLE) return message === values[at + 1] || settle(message, values, at + 1) ? at + 2 : -1;
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
 * Whether `output`, not the kept `refs[at]` itself, is the kept `content` tool output
 * again — the AI SDK rebuilds such an output on every call (`{ type: 'content', value:
 * items.map(…) }`, `mapToolResultOutput`) around the very same text items (file items
 * rebuilt too) — and if so, keeps it in that place (so a message is kept as this call
 * sent it, as {@link settle} does). Cheaper than {@link sameContent} on the wrapper and
 * never looser: both plain objects with no defined key but `type` and `value`, the items
 * the same objects or {@link sameContent} alike, in order; anything else is left to the
 * caller's full comparison.
 */
function settleContentOutput(output: unknown, refs: unknown[], at: number): boolean {
  const kept = refs[at];
  if (!isContentOutput(output) || !isContentOutput(kept)) return false;
  const items = output.value;
  const keptItems = kept.value;
  if (items.length !== keptItems.length) return false;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    const keptItem = keptItems[index];
    if (item !== keptItem && !sameContent(item, keptItem)) return false;
  }
  refs[at] = output;
  return true;
}

/** Whether `value` is a plain `{ type: 'content', value: [...] }` with no other defined key (an inherited enumerable one counts). */
function isContentOutput(value: unknown): value is { type: 'content'; value: readonly unknown[] } {
  if (!isRecord(value) || value.type !== 'content' || !Array.isArray(value.value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (key !== 'type' && key !== 'value' && value[key] !== undefined) return false;
  return true;
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
