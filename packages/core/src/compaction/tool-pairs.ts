import type { Message, Part, ToolResultPart } from '../messages/types.js';

/** The result given to a tool call that has none in the context. */
export const MISSING_RESULT_OUTPUT = '[No result: the tool call was interrupted or its result was not recorded.]';

/**
 * The messages each tool call occurrence spans: from its call (or an earlier result of
 * the same id stored before it, after the previous call with that id) to its last result
 * before the next call with the same id. Ids are matched by occurrence, not globally, so a
 * provider that reuses `call_0` on every turn pairs each call with its own results.
 */
export function toolCallSpans(messages: readonly Message[]): Array<[first: number, last: number]> {
  const spans: Array<[number, number]> = [];
  const open = new Map<string, [number, number]>();
  const early = new Map<string, number>();
  for (let index = 0; index < messages.length; index += 1) {
    for (const part of messages[index]!.parts) {
      if (part.type === 'tool-call') {
        const previous = open.get(part.toolCallId);
        if (previous) spans.push(previous);
        const start = early.get(part.toolCallId) ?? index;
        early.delete(part.toolCallId);
        open.set(part.toolCallId, [start, index]);
      } else if (part.type === 'tool-result') {
        const span = open.get(part.toolCallId);
        if (span) span[1] = index;
        else if (!early.has(part.toolCallId)) early.set(part.toolCallId, index);
      }
    }
  }
  for (const span of open.values()) spans.push(span);
  return spans;
}

/**
 * For each index `i` of `messages`, whether a cut before message `i` would
 * separate a tool call from its result (see {@link toolCallSpans}). O(n) over parts.
 */
export function straddledCuts(messages: readonly Message[]): Uint8Array {
  // Difference array: a pair spanning [first, last] blocks cuts at first+1 … last.
  const delta = new Int32Array(messages.length + 1);
  for (const [first, last] of toolCallSpans(messages)) {
    if (last <= first) continue;
    delta[first + 1]! += 1;
    delta[last + 1]! -= 1;
  }
  const blocked = new Uint8Array(messages.length + 1);
  let open = 0;
  for (let index = 0; index <= messages.length; index += 1) {
    open += delta[index]!;
    blocked[index] = open > 0 ? 1 : 0;
  }
  return blocked;
}

/** A message that carries tool results (a `tool` message, or a user message holding results). */
function carriesResults(message: Message): boolean {
  return (
    message.role === 'tool' || (message.role === 'user' && message.parts.some((part) => part.type === 'tool-result'))
  );
}

/** Pending calls kept in a plain array up to this many; a message with more calls switches to a set. */
const FEW_PENDING_CALLS = 16;

/**
 * The calls awaiting a result while {@link hasValidToolPairs} walks a history: a plain
 * array reused from message to message, or a set once a message has more than
 * {@link FEW_PENDING_CALLS} calls (so the check stays linear).
 */
class PendingCalls {
  private readonly few: string[] = [];
  private count = 0;
  private many: Set<string> | undefined = undefined;

  /** Whether no call awaits a result. */
  isEmpty(): boolean {
    return this.count === 0 && (this.many === undefined || this.many.size === 0);
  }

  /** Back to the plain array (only called when empty). */
  reset(): void {
    this.many = undefined;
  }

  /** Adds a call; false when the same id already awaits a result. */
  add(id: string): boolean {
    const many = this.many;
    if (many) {
      if (many.has(id)) return false;
      many.add(id);
      return true;
    }
    const few = this.few;
    const count = this.count;
    for (let known = 0; known < count; known += 1) if (few[known] === id) return false;
    few[count] = id;
    this.count = count + 1;
    if (count + 1 > FEW_PENDING_CALLS) {
      this.many = new Set(few.slice(0, count + 1));
      this.count = 0;
    }
    return true;
  }

  /** Removes `id` from the calls awaiting a result; false when it is not one of them. */
  answer(id: string): boolean {
    if (this.many) return this.many.delete(id);
    const few = this.few;
    for (let index = 0; index < this.count; index += 1) {
      if (few[index] === id) {
        this.count -= 1;
        few[index] = few[this.count] as string;
        return true;
      }
    }
    return false;
  }
}

/** Answers a pending call with each result among `parts`; false at a result that answers none. */
function answerResults(parts: readonly Part[], pending: PendingCalls): boolean {
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as Part;
    if (part.type === 'tool-result' && !pending.answer(part.toolCallId)) return false;
  }
  return true;
}

/** Adds each call among `parts` to the pending calls; false at an id called twice. */
function addCalls(parts: readonly Part[], pending: PendingCalls): boolean {
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as Part;
    if (part.type === 'tool-call' && !pending.add(part.toolCallId)) return false;
  }
  return true;
}

/**
 * Whether every tool call is followed, in the result messages right after it, by exactly
 * one result, and no result stands anywhere else. One indexed pass over the messages; the
 * calls awaiting a result sit in one reused array (a message rarely has more than a few),
 * so no set, array or iterator is made per message. The loops over a message's parts are
 * functions of their own: as inner loops of this one, V8 compiled them on stack
 * replacement and deoptimized each time one ended (thousands of times over a 10,000-message
 * history, `--trace-deopt`).
 */
export function hasValidToolPairs(messages: readonly Message[]): boolean {
  const pending = new PendingCalls();
  for (let at = 0; at < messages.length; at += 1) {
    const message = messages[at] as Message;
    const parts = message.parts;
    if (carriesResults(message)) {
      if (!answerResults(parts, pending)) return false;
      continue;
    }
    if (!pending.isEmpty()) return false;
    pending.reset();
    // A provider-executed tool's result sits in the assistant message with its call.
    if (!addCalls(parts, pending) || !answerResults(parts, pending)) return false;
  }
  return pending.isEmpty();
}

/**
 * Makes tool calls and results pair up the way every provider requires: each call is
 * followed, in the result messages right after it, by exactly one result, in order.
 *
 * - A result stored before its call (or after a later message) is moved to right after
 *   its call.
 * - A second result for the same call is dropped (the first one answers it).
 * - A result with no call is dropped, and a message left empty by that.
 * - A call with no result gets a synthetic error result ({@link MISSING_RESULT_OUTPUT}),
 *   so the context never ends on a dangling call.
 * - Ids are matched by occurrence: a provider that reuses one id (`call_0`) on every turn
 *   has each call answered by its own results.
 * - A result in the same assistant message as its call (a provider-executed tool) answers
 *   it where it is.
 *
 * Moved and synthetic results go in one `tool` message after the call's block
 * (`metadata.compaction.type` `synthetic-result` when it holds a synthetic one,
 * `relocated-result` otherwise). Returns `messages` itself when nothing needed repair.
 * Pure: no message is modified.
 */
export function repairToolPairs(messages: readonly Message[]): Message[] {
  if (hasValidToolPairs(messages)) return messages as Message[];
  const nextCallAt = nextCallIndexes(messages);
  const consumed = new Set<ToolResultPart>();
  const unclaimed = new Map<string, ToolResultPart[]>();
  const repaired: Message[] = [];
  let block: { message: Message; pending: Map<string, string>; ids: string[]; index: number } | undefined;

  const closeBlock = (endIndex: number) => {
    if (!block) return;
    const parts: ToolResultPart[] = [];
    let synthetic = false;
    for (const [id, toolName] of block.pending) {
      const found =
        unclaimed.get(id)?.shift() ?? findLaterResult(messages, id, endIndex, nextCallAt(block.index, id), consumed);
      if (found) {
        consumed.add(found);
        parts.push(found);
      } else {
        synthetic = true;
        parts.push({ type: 'tool-result', toolCallId: id, toolName, output: MISSING_RESULT_OUTPUT, isError: true });
      }
    }
    if (parts.length > 0) {
      repaired.push({
        id: `${block.message.id}:${synthetic ? 'missing' : 'relocated'}-results`,
        role: 'tool',
        parts,
        metadata: { compaction: { type: synthetic ? 'synthetic-result' : 'relocated-result' } },
      });
    }
    // Results of these ids kept aside so far were early answers (used above) or second answers: done with.
    for (const id of block.ids) unclaimed.delete(id);
    block = undefined;
  };

  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    const carrier = carriesResults(message);
    if (!carrier) {
      closeBlock(index);
      if (message.parts.some((part) => part.type === 'tool-call')) {
        const pending = new Map<string, string>();
        for (const part of message.parts) if (part.type === 'tool-call') pending.set(part.toolCallId, part.toolName);
        block = { message, pending, ids: [...pending.keys()], index };
      }
    }
    const parts: Part[] = [];
    for (const part of message.parts) {
      if (part.type !== 'tool-result') {
        parts.push(part);
        continue;
      }
      if (consumed.has(part)) continue;
      if (block?.pending.delete(part.toolCallId)) {
        parts.push(part);
        continue;
      }
      // Before its call, a second answer, or an orphan: kept aside for a later call with this id.
      const stash = unclaimed.get(part.toolCallId);
      if (stash) stash.push(part);
      else unclaimed.set(part.toolCallId, [part]);
    }
    if (parts.length > 0 || message.parts.length === 0) {
      repaired.push(parts.length === message.parts.length ? message : { ...message, parts });
    }
  }
  closeBlock(messages.length);
  return repaired;
}

/** A function giving, for a call of `id` at message `index`, the index of the next call with that id (or the end). */
function nextCallIndexes(messages: readonly Message[]): (index: number, id: string) => number {
  let table: Map<string, number[]> | undefined;
  return (index, id) => {
    if (!table) {
      table = new Map();
      messages.forEach((message, at) => {
        for (const part of message.parts) {
          if (part.type !== 'tool-call') continue;
          const list = table!.get(part.toolCallId);
          if (list) list.push(at);
          else table!.set(part.toolCallId, [at]);
        }
      });
    }
    for (const at of table.get(id) ?? []) if (at > index) return at;
    return messages.length;
  };
}

/** The first not yet used result for `id` in messages `from` … `before - 1`. */
function findLaterResult(
  messages: readonly Message[],
  id: string,
  from: number,
  before: number,
  consumed: ReadonlySet<ToolResultPart>,
): ToolResultPart | undefined {
  for (let index = from; index < before; index += 1) {
    for (const part of messages[index]!.parts) {
      if (part.type === 'tool-result' && part.toolCallId === id && !consumed.has(part)) return part;
    }
  }
  return undefined;
}
