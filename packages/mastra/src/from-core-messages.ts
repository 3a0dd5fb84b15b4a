import type { Message, Part } from '@compaction/core';
import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import { type MastraOrigin, mastraOrigin } from './mastra-origin.js';
import { applyCorePart, partFromCore } from './part-from-core.js';

/** Content fields that mirror the parts (legacy); wrong for a message rebuilt from some of its parts. */
const PART_MIRRORS = ['content', 'toolInvocations', 'reasoning', 'experimental_attachments', 'annotations'] as const;

type Member = { message: Message; origin: MastraOrigin };

/**
 * Core messages back to Mastra messages: the inverse of `toCoreMessages`.
 *
 * The core messages made from one Mastra message are joined again under its id:
 * all of them rebuild it exactly; some of them (a compaction kept only its later
 * steps) rebuild a message with just those parts, without the legacy mirror
 * fields. What core changed is applied (a pruned tool output, also where a
 * stored `toModelOutput` holds it). Messages core made (the summary, its
 * acknowledgement, or a conversation kept outside Mastra) become new Mastra
 * messages dated just before the message that follows them; consecutive
 * assistant steps among them (each with its `tool` results) become one
 * assistant message split by `step-start`, as Mastra stores a multi-step
 * response. Core's synthetic results for unanswered tool calls are dropped,
 * since Mastra's own prompt conversion handles those calls.
 *
 * @example
 * ```ts
 * const view = fromCoreMessages(prepared.messages);
 * ```
 */
export function fromCoreMessages(messages: readonly Message[]): MastraDBMessage[] {
  const rebuilt: { message: MastraDBMessage; made: boolean }[] = [];
  let group: Member[] = [];
  /** The assistant message core made that later assistant steps (and their results) join. */
  let open: MastraDBMessage | undefined;
  const flush = () => {
    if (group.length > 0) {
      rebuilt.push({ message: rebuildMessage(group), made: false });
      open = undefined;
    }
    group = [];
  };
  for (const message of messages) {
    const origin = mastraOrigin(message);
    if (origin) {
      if (group.length > 0 && group[0]!.origin.envelope.id !== origin.envelope.id) flush();
      group.push({ message, origin });
      continue;
    }
    flush();
    if (isSyntheticResult(message)) continue;
    if (message.role === 'tool') {
      mergeResults(rebuilt, message.parts);
      continue;
    }
    const made = madeMessage(message);
    if (open && message.role === 'assistant') {
      joinStep(open, made);
      continue;
    }
    open = message.role === 'assistant' ? made : undefined;
    rebuilt.push({ message: made, made: true });
  }
  flush();
  return dateMadeMessages(rebuilt);
}

/**
 * Adds an assistant step core made to the assistant message before it, after a
 * `step-start`: one Mastra message per run of steps, the way Mastra stores a
 * multi-step response. Separate messages would lose their step boundaries, since
 * a `MessageList` merges consecutive input assistant messages into one and drops
 * their `step-start` parts; `toCoreMessages` splits the steps again.
 */
function joinStep(message: MastraDBMessage, step: MastraDBMessage): void {
  const { metadata, parts } = step.content;
  message.content.parts = [...message.content.parts, { type: 'step-start' }, ...parts];
  if (metadata) message.content.metadata = { ...message.content.metadata, ...metadata };
}

function rebuildMessage(members: Member[]): MastraDBMessage {
  const { envelope, partCount } = members[0]!.origin;
  const parts = new Map<number, MastraMessagePart>();
  for (const { origin } of members) {
    for (const { index, part } of origin.parts) if (!parts.has(index)) parts.set(index, part);
  }
  for (const { message, origin } of members) {
    for (const [position, corePart] of message.parts.entries()) {
      const index = sourceIndex(origin, message, position, corePart);
      const current = index === undefined ? undefined : parts.get(index);
      if (current) parts.set(index!, applyCorePart(current, corePart));
    }
  }
  const ordered = [...parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
  const content = { ...envelope.content };
  if (ordered.length !== partCount) for (const key of PART_MIRRORS) delete content[key];
  return { ...envelope, content: { ...content, parts: ordered } };
}

/** The Mastra part a core part came from: by position, or by tool call id if core dropped parts. */
function sourceIndex(origin: MastraOrigin, message: Message, position: number, part: Part): number | undefined {
  if (message.parts.length === origin.sources.length) return origin.sources[position];
  if (part.type !== 'tool-call' && part.type !== 'tool-result') return undefined;
  return origin.parts.find(
    ({ part: source }) => source.type === 'tool-invocation' && source.toolInvocation.toolCallId === part.toolCallId,
  )?.index;
}

function isSyntheticResult(message: Message): boolean {
  const compaction = message.metadata?.compaction as { type?: unknown } | undefined;
  return compaction?.type === 'synthetic-result';
}

/** A message core made, as a Mastra message (dated later by `dateMadeMessages`). */
function madeMessage(message: Message): MastraDBMessage {
  const parts = message.parts.flatMap((part) => {
    const mastraPart = partFromCore(part);
    return mastraPart ? [mastraPart] : [];
  });
  return {
    id: message.id,
    role: message.role === 'tool' ? 'assistant' : message.role,
    createdAt: new Date(0),
    content: { format: 2, parts, ...(message.metadata ? { metadata: message.metadata } : {}) },
  };
}

/** Results of a `tool` message core made, merged into the invocations they answer. */
function mergeResults(rebuilt: { message: MastraDBMessage }[], parts: readonly Part[]): void {
  for (const part of parts) {
    if (part.type !== 'tool-result') continue;
    for (let index = rebuilt.length - 1; index >= 0; index -= 1) {
      const content = rebuilt[index]!.message.content;
      const at = content.parts.findIndex(
        (candidate) => candidate.type === 'tool-invocation' && candidate.toolInvocation.toolCallId === part.toolCallId,
      );
      const invocation = content.parts[at];
      if (invocation?.type !== 'tool-invocation') continue;
      content.parts = content.parts.with(at, {
        ...invocation,
        toolInvocation: { ...invocation.toolInvocation, state: 'result', result: part.output },
      });
      break;
    }
  }
}

/**
 * Dates each message core made 1 ms apart just before the next rebuilt message
 * (or after the previous one), since Mastra orders messages by `createdAt`.
 */
function dateMadeMessages(rebuilt: readonly { message: MastraDBMessage; made: boolean }[]): MastraDBMessage[] {
  const messages = rebuilt.map(({ message }) => message);
  for (let index = 0; index < rebuilt.length; index += 1) {
    if (!rebuilt[index]!.made) continue;
    let end = index;
    while (end < rebuilt.length && rebuilt[end]!.made) end += 1;
    const next = timeOf(messages[end]);
    const previous = timeOf(messages[index - 1]);
    for (let made = index; made < end; made += 1) {
      const time = next !== undefined ? next - (end - made) : (previous ?? 0) + (made - index + 1);
      messages[made] = { ...messages[made]!, createdAt: new Date(time) };
    }
    index = end - 1;
  }
  return messages;
}

/** A message's time in ms; `createdAt` may arrive as a string from storage. */
function timeOf(message: MastraDBMessage | undefined): number | undefined {
  if (!message) return undefined;
  const time = new Date(message.createdAt).getTime();
  return Number.isNaN(time) ? undefined : time;
}
