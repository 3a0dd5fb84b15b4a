/**
 * The messages a conversation sent, packed: what `countResentMessages` compares the next
 * call's with, and what a released conversion rebuilds its messages from.
 *
 * Per message, a shape code, the tool names of its parts and two words a caller may keep
 * beside them (the converter: the message's content id; `table`, {@link STRIDE} 32-bit words a
 * message) and only the values that are references (`refs`): a message's `providerOptions`
 * when it has some; per part its `providerOptions` when it has some and the fields the
 * provider spec defines for it (`text`; `toolCallId`, `input`; `toolCallId`, `output`), or
 * the part itself for other part types; string content as itself. The role, the part
 * count, each part's type, which options are present and a tool call's `providerExecuted`
 * are in the code; a tool part's `toolName` is a byte of the second word, its place in
 * `names` (the conversation's few tool names). How many references a message has follows
 * from its code, so where a message's values start is a sum over the codes before it. A message the code cannot describe (a role or part
 * type outside the spec's, more than {@link PACKED_PARTS} parts, a malformed message) keeps
 * every value in `refs` (see {@link pushValues}) and the code {@link GENERIC}; a message with a
 * key the spec does not define (on itself or a part of the spec's types) is kept whole under
 * the code {@link GENERIC} ({@link WHOLE} and the message), so it comes back exactly as it came.
 *
 * The message objects themselves are kept only from `originalsFrom` on (where the last
 * user message was: what the next call compares in full); before it, a message is rebuilt
 * from its values when asked for ({@link sentMessageAt}).
 */
export type SentMessages = {
  /** How many messages are held. */
  count: number;
  /** Per message ({@link STRIDE} words): its shape code, its parts' tool names (a byte each), two words of the caller's. */
  table: Uint32Array;
  /** The tool names the messages use (at most {@link MAX_NAMES}). */
  names: unknown[];
  /** The values that are references, one message after the other. */
  refs: unknown[];
  /** How many references `refs` has room for since {@link compactSent} last trimmed it (past that, it grew). */
  refsRoom: number;
  /** The messages as first seen, from `originalsFrom` on. */
  originals: unknown[];
  /** The index of `originals[0]`. */
  originalsFrom: number;
};

/**
 * Estimated bytes {@link SentMessages} holds a message besides the message itself: its code,
 * end and two words (16 bytes, outside the JS heap), one to four references (8 each).
 */
export const SENT_MESSAGE_BYTES = 40;

/** Words of `table` a message. */
export const STRIDE = 4;

/** The most tool names a {@link SentMessages} keeps (a byte a part holds `index + 1`); a message with another is kept value by value. */
export const MAX_NAMES = 255;

/** The table of a {@link SentMessages} that holds nothing yet (never written: the first message makes one). */
const EMPTY_TABLE = new Uint32Array(0);

/** The most parts a shape code describes (6 bits a part from bit 6). */
export const PACKED_PARTS = 4;

/** The part-count field of a code whose content is a string (one reference: the string). */
export const STRING_CONTENT = 5;

/** The part-count field of a message kept value by value in `refs` ({@link pushValues}). */
export const GENERIC = 7;

/** A shape code's fields. */
const ROLE_MASK = 3;
const MESSAGE_OPTIONS = 4;
const COUNT_SHIFT = 3;
const PART_SHIFT = 6;
const PART_BITS = 6;

/** A part's 6 bits: its kind (3 bits), options present (1), `providerExecuted` (2). */
const KIND_MASK = 7;
const PART_OPTIONS = 8;
const EXECUTED_SHIFT = 4;

const TEXT = 0;
const REASONING = 1;
const TOOL_CALL = 2;
const TOOL_RESULT = 3;
const OTHER = 4;

/** The roles by their code. */
const ROLES: readonly string[] = ['system', 'user', 'assistant', 'tool'];

/** Marks content that is not an array of parts (a string): the value after it is the content. */
export const NOT_PARTS = Symbol('not parts');

/** Marks a part that is not an object (malformed): the value after it is the part. */
export const NOT_A_PART = Symbol('not a part');

/**
 * Marks a message kept whole: it has a key the provider spec does not define, on itself or on
 * a part of the spec's types (an application's `id`, a part's `providerMetadata`). The value
 * after it is the message itself, compared in full and given back as it came.
 */
export const WHOLE = Symbol('whole message');

/** The keys the provider spec defines on a message and on each part type the values hold. */
const SPEC_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  message: new Set(['role', 'content', 'providerOptions']),
  text: new Set(['type', 'text', 'providerOptions']),
  reasoning: new Set(['type', 'text', 'providerOptions']),
  'tool-call': new Set(['type', 'toolCallId', 'toolName', 'input', 'providerExecuted', 'providerOptions']),
  'tool-result': new Set(['type', 'toolCallId', 'toolName', 'output', 'providerOptions']),
};

/** Whether a message and its parts of the spec's types have no key with a value the values do not hold (own keys only). */
export function onlySpecKeys(message: Fields): boolean {
  if (!specKeysOnly(message, SPEC_KEYS.message!)) return false;
  if (!Array.isArray(message.content)) return true;
  for (const part of message.content as unknown[]) {
    if (!isRecord(part)) continue;
    const keys = SPEC_KEYS[part.type as string];
    if (keys !== undefined && !specKeysOnly(part, keys)) return false;
  }
  return true;
}

function specKeysOnly(value: Fields, keys: ReadonlySet<string>): boolean {
  for (const key in value) if (value[key] !== undefined && !keys.has(key) && Object.hasOwn(value, key)) return false;
  return true;
}

type Fields = Record<string, unknown>;

/** An empty {@link SentMessages}, or one holding `messages` (every original kept). */
export function sentMessages(messages: readonly object[] = []): SentMessages {
  const sent: SentMessages = {
    count: 0,
    table: EMPTY_TABLE,
    names: [],
    refs: [],
    refsRoom: 0,
    originals: [],
    originalsFrom: 0,
  };
  for (const message of messages) rememberSent(sent, message);
  return sent;
}

/** Adds `message` after the messages `sent` holds, with the caller's two words beside it. */
export function rememberSent(sent: SentMessages, message: object, high = 0, low = 0): void {
  const at = sent.count * STRIDE;
  if (at + STRIDE > sent.table.length) {
    const grown = new Uint32Array((sent.count + slack(sent.count)) * STRIDE);
    grown.set(sent.table);
    sent.table = grown;
  }
  sent.table[at] = packMessage(sent, message as Fields);
  sent.table[at + 1] = packedNames;
  sent.table[at + 2] = high;
  sent.table[at + 3] = low;
  sent.originals.push(message);
  sent.count += 1;
}

/** Where message `index`'s values start in `refs` (a sum over the codes before it: O(index)). */
export function refsStart(sent: SentMessages, index: number): number {
  let at = 0;
  for (let before = 0; before < index; before += 1) at += refsCount(sent.table[before * STRIDE]!);
  return at;
}

/** How many references a message with shape `code` has in `refs`. */
export function refsCount(code: number): number {
  const count = (code >>> COUNT_SHIFT) & 7;
  if (count === GENERIC) return code >>> PART_SHIFT;
  let refs = code & MESSAGE_OPTIONS ? 1 : 0;
  if (count === STRING_CONTENT) return refs + 1;
  for (let part = 0; part < count; part += 1) {
    const bits = code >>> (PART_SHIFT + PART_BITS * part);
    const kind = bits & KIND_MASK;
    refs += (bits & PART_OPTIONS ? 1 : 0) + (kind === TOOL_CALL || kind === TOOL_RESULT ? 2 : 1);
  }
  return refs;
}

/**
 * A new {@link SentMessages} holding the first `count` messages of `sent` (which is left
 * as it is: a conversion that was handed out keeps what it compared with).
 */
export function sentPrefix(sent: SentMessages, count: number): SentMessages {
  const kept = Math.max(0, Math.min(count, sent.count));
  const table = new Uint32Array((kept + 1) * STRIDE);
  table.set(sent.table.subarray(0, kept * STRIDE));
  const originalsEnd = Math.max(0, kept - sent.originalsFrom);
  return {
    count: kept,
    table,
    names: sent.names.slice(),
    refs: sent.refs.slice(0, refsStart(sent, kept)),
    refsRoom: 0,
    originals: sent.originals.slice(0, originalsEnd),
    originalsFrom: Math.min(sent.originalsFrom, kept),
  };
}

/** Keeps the first `count` messages of `sent`. */
export function keepSent(sent: SentMessages, count: number): void {
  if (count >= sent.count) return;
  sent.refs.length = refsStart(sent, count);
  sent.originals.length = Math.max(0, count - sent.originalsFrom);
  sent.originalsFrom = Math.min(sent.originalsFrom, count);
  sent.count = count;
}

/**
 * Lets go of the originals before `index` (a message before the last user message is
 * compared value by value, and rebuilt from its values when asked for).
 */
export function keepOriginalsFrom(sent: SentMessages, index: number): void {
  const from = Math.min(index, sent.count);
  if (from <= sent.originalsFrom) return;
  sent.originals = sent.originals.slice(from - sent.originalsFrom);
  sent.originalsFrom = from;
}

/**
 * The table and references near their sizes, with room for a few more messages (a
 * conversation held counted grows by a message or two a call): what a kept conversation
 * holds is what it uses, not what growing by half left. References are trimmed only up to
 * {@link TRIM_REFS} (a longer array is copied at a cost that grows with the history).
 */
export function compactSent(sent: SentMessages): void {
  const room = (sent.count + slack(sent.count)) * STRIDE;
  if (sent.table.length > room + slack(sent.count) * STRIDE) {
    const table = new Uint32Array(room);
    table.set(sent.table.subarray(0, sent.count * STRIDE));
    sent.table = table;
  }
  const refs = sent.refs;
  const length = refs.length;
  if (length > TRIM_REFS || length <= sent.refsRoom) return;
  // Made at its size plus room (holey: the room is holes), then cut to the length: V8 keeps
  // the room, so the next few calls push into it without growing the array by half.
  const trimmed: unknown[] = new Array(length + REFS_ROOM);
  for (let index = 0; index < length; index += 1) trimmed[index] = refs[index];
  trimmed.length = length;
  sent.refs = trimmed;
  sent.refsRoom = length + REFS_ROOM;
}

/** The most references {@link compactSent} copies to trim. */
export const TRIM_REFS = 4096;

/** Room for references left by {@link compactSent}. */
const REFS_ROOM = 8;

/** Room for messages in a table: an eighth more, and at least eight. */
function slack(count: number): number {
  return 8 + (count >> 3);
}

/** The tool names word of the message {@link packMessage} packed last. */
let packedNames = 0;

/** The shape code of `message`, its references pushed onto `sent.refs` (its names word in `packedNames`). */
function packMessage(sent: SentMessages, message: Fields): number {
  const refs = sent.refs;
  const start = refs.length;
  packedNames = 0;
  const whole = isRecord(message) && !onlySpecKeys(message);
  const code = isRecord(message) && !whole ? packedCode(sent, message) : -1;
  if (code >= 0) return code;
  refs.length = start;
  packedNames = 0;
  if (whole) refs.push(WHOLE, message);
  else pushValues(refs, message);
  return ((GENERIC << COUNT_SHIFT) | ((refs.length - start) << PART_SHIFT)) >>> 0;
}

/** The byte that stands for tool name `name` (its place in `sent.names` + 1), or -1 when none can. */
function nameByte(sent: SentMessages, name: unknown): number {
  if (typeof name !== 'string') return -1;
  const index = sent.names.indexOf(name);
  if (index >= 0) return index + 1;
  if (sent.names.length >= MAX_NAMES) return -1;
  sent.names.push(name);
  return sent.names.length;
}

/** The packed code of a message (its references pushed), or -1 when the code cannot describe it. */
function packedCode(sent: SentMessages, message: Fields): number {
  const refs = sent.refs;
  const role = ROLES.indexOf(message.role as string);
  if (role < 0) return -1;
  let code = role;
  if (message.providerOptions !== undefined) {
    code |= MESSAGE_OPTIONS;
    refs.push(message.providerOptions);
  }
  const content = message.content;
  if (typeof content === 'string') {
    refs.push(content);
    return code | (STRING_CONTENT << COUNT_SHIFT);
  }
  if (!Array.isArray(content) || content.length > PACKED_PARTS) return -1;
  code |= content.length << COUNT_SHIFT;
  // (`packedNames` is built as a signed int; stored in a Uint32Array it reads back unsigned.)
  for (let index = 0; index < content.length; index += 1) {
    const part = content[index] as unknown;
    if (!isRecord(part)) return -1;
    let bits = 0;
    if (part.providerOptions !== undefined) {
      bits |= PART_OPTIONS;
      refs.push(part.providerOptions);
    }
    switch (part.type) {
      case 'text':
        refs.push(part.text);
        break;
      case 'reasoning':
        bits |= REASONING;
        refs.push(part.text);
        break;
      case 'tool-call': {
        const executed = part.providerExecuted;
        const name = nameByte(sent, part.toolName);
        if (name < 0 || (executed !== undefined && typeof executed !== 'boolean')) return -1;
        bits |= TOOL_CALL | ((executed === undefined ? 0 : executed ? 1 : 2) << EXECUTED_SHIFT);
        packedNames |= name << (8 * index);
        refs.push(part.toolCallId, part.input);
        break;
      }
      case 'tool-result': {
        const name = nameByte(sent, part.toolName);
        if (name < 0) return -1;
        bits |= TOOL_RESULT;
        packedNames |= name << (8 * index);
        refs.push(part.toolCallId, part.output);
        break;
      }
      default:
        if (typeof part.type !== 'string') return -1;
        bits |= OTHER;
        refs.push(part);
    }
    code |= bits << (PART_SHIFT + PART_BITS * index);
  }
  return code >>> 0;
}

/**
 * Every value of a message, one after the other (the layout of a {@link GENERIC} message,
 * and of {@link unpackValues}): `role`, `providerOptions`, then {@link NOT_PARTS} and the
 * content, or the part count and per part its `type`, `providerOptions` and spec fields (or
 * the part itself for other types; {@link NOT_A_PART} and the value for a part that is not an
 * object). A message that is not an object is {@link NOT_A_PART} and itself.
 */
export function pushValues(values: unknown[], message: Fields): void {
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
 * The values of message `index` in the {@link pushValues} layout, and for each the index in
 * `refs` it is kept at (-1 when the code holds it): what a comparison that may put an equal
 * value in a kept one's place works on.
 */
export function unpackValues(
  sent: SentMessages,
  index: number,
  start = refsStart(sent, index),
): { values: unknown[]; slots: number[] } {
  const code = sent.table[index * STRIDE]!;
  const names = sent.table[index * STRIDE + 1]!;
  let at = start;
  const values: unknown[] = [];
  const slots: number[] = [];
  const fixed = (value: unknown) => {
    values.push(value);
    slots.push(-1);
  };
  const ref = () => {
    values.push(sent.refs[at]);
    slots.push(at);
    at += 1;
  };
  const count = (code >>> COUNT_SHIFT) & 7;
  if (count === GENERIC) {
    const end = start + (code >>> PART_SHIFT);
    while (at < end) ref();
    return { values, slots };
  }
  fixed(ROLES[code & ROLE_MASK]);
  if (code & MESSAGE_OPTIONS) ref();
  else fixed(undefined);
  if (count === STRING_CONTENT) {
    fixed(NOT_PARTS);
    ref();
    return { values, slots };
  }
  fixed(count);
  for (let part = 0; part < count; part += 1) {
    const bits = (code >>> (PART_SHIFT + PART_BITS * part)) & 63;
    const kind = bits & KIND_MASK;
    if (kind === OTHER) {
      // Type and options as the part has them, then the part.
      const whole = sent.refs[at + (bits & PART_OPTIONS ? 1 : 0)] as Fields;
      fixed(whole.type);
      if (bits & PART_OPTIONS) ref();
      else fixed(undefined);
      ref();
      continue;
    }
    fixed(KIND_TYPES[kind]);
    if (bits & PART_OPTIONS) ref();
    else fixed(undefined);
    if (kind === TEXT || kind === REASONING) ref();
    else {
      ref(); // toolCallId
      fixed(sent.names[((names >>> (8 * part)) & 255) - 1]);
      ref(); // input or output
      if (kind === TOOL_CALL) fixed(EXECUTED[(bits >>> EXECUTED_SHIFT) & 3]);
    }
  }
  return { values, slots };
}

const KIND_TYPES: readonly string[] = ['text', 'reasoning', 'tool-call', 'tool-result'];
const EXECUTED: readonly (boolean | undefined)[] = [undefined, true, false, undefined];

/**
 * Message `index` as sent: the original object from `originalsFrom` on or where it was kept
 * whole ({@link WHOLE}), before it a message rebuilt from the kept values (the same role,
 * options and content: it had no key the spec does not define).
 */
export function sentMessageAt(sent: SentMessages, index: number, start?: number): unknown {
  if (index >= sent.originalsFrom) return sent.originals[index - sent.originalsFrom];
  const { values } = unpackValues(sent, index, start ?? refsStart(sent, index));
  if (values[0] === NOT_A_PART || values[0] === WHOLE) return values[1];
  const message: Fields = { role: values[0] };
  if (values[2] === NOT_PARTS) message.content = values[3];
  else {
    const parts: unknown[] = [];
    let at = 3;
    for (let part = 0; part < (values[2] as number); part += 1) {
      if (values[at] === NOT_A_PART) {
        parts.push(values[at + 1]);
        at += 2;
        continue;
      }
      const type = values[at];
      const options = values[at + 1];
      at += 2;
      let rebuilt: Fields;
      if (type === 'text' || type === 'reasoning') {
        rebuilt = { type, text: values[at] };
        at += 1;
      } else if (type === 'tool-call') {
        rebuilt = { type, toolCallId: values[at], toolName: values[at + 1], input: values[at + 2] };
        if (values[at + 3] !== undefined) rebuilt.providerExecuted = values[at + 3];
        at += 4;
      } else if (type === 'tool-result') {
        rebuilt = { type, toolCallId: values[at], toolName: values[at + 1], output: values[at + 2] };
        at += 3;
      } else {
        parts.push(values[at]); // the part itself
        at += 1;
        continue;
      }
      if (options !== undefined) rebuilt.providerOptions = options;
      parts.push(rebuilt);
    }
    message.content = parts;
  }
  if (values[1] !== undefined) message.providerOptions = values[1];
  return message;
}

/** The role of message `index` as sent (read from its code; `undefined` for a malformed message). */
export function sentRole(sent: SentMessages, index: number): unknown {
  const code = sent.table[index * STRIDE]!;
  if (((code >>> COUNT_SHIFT) & 7) !== GENERIC) return ROLES[code & ROLE_MASK];
  const start = refsStart(sent, index);
  const first = sent.refs[start];
  if (first === WHOLE) return (sent.refs[start + 1] as Fields).role;
  return first === NOT_A_PART ? undefined : first;
}

/** Whether `value` is an object (not null): a message or part whose fields can be read. */
export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null;
}
