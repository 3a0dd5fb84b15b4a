import { InvalidMessageError, type Message, type MessageUsage, type Part, type Role } from '@compaction/core';
import type { AIMessage, BaseMessage, ToolMessage } from '@langchain/core/messages';
import { blockToPart } from './block-to-part.js';
import { COMPACTION_KWARG } from './compaction-kwarg.js';
import { type Conversion, extendConversion } from './extend-conversion.js';
import { assignMessageIds, hasId, messageIds } from './message-ids.js';
import { sameMessageIds } from './same-message-ids.js';
import { sameMessageShape } from './same-message-shape.js';

/** The key under core `Message.metadata` that holds the LangChain message it came from. */
export const ORIGINAL_MESSAGE_KEY = 'langchain';

export { COMPACTION_KWARG } from './compaction-kwarg.js';

/**
 * What `metadata.langchain` of a converted core message holds: the LangChain
 * message, and (private, so neither JSON nor `structuredClone` carries it) the
 * parts array made from it — "core left the message as converted" is identity
 * of that array, read on the message itself instead of in a `WeakMap` (an entry
 * per converted message, which costs each conversion and every full GC).
 */
class Origin {
  readonly original: BaseMessage;
  readonly #parts: readonly Part[];
  constructor(original: BaseMessage, parts: readonly Part[]) {
    this.original = original;
    this.#parts = parts;
  }
  /** Whether `parts` is the very array made from {@link Origin.original}. */
  made(parts: readonly Part[]): boolean {
    return this.#parts === parts;
  }
}

/**
 * How many LangChain messages keep their core message (the most recently
 * converted or used; ~400 B each besides the message itself, which the entry
 * keeps alive): a thread that comes back within them is not converted again.
 * A `WeakMap` would hold a core message for every message the application
 * holds — hundreds of MB for thousands of threads.
 */
export const CONVERTED_MESSAGES_KEPT = 20_000;

/**
 * Each LangChain message's core message, made once (the agent state and chat
 * histories keep the same objects from call to call), in two generations of at
 * most half of {@link CONVERTED_MESSAGES_KEPT}: one used again moves to the
 * current one, the old one is dropped whole when the current one is full — O(1).
 */
const converted = {
  current: new Map<BaseMessage, Message>(),
  previous: new Map<BaseMessage, Message>(),
  get(message: BaseMessage): Message | undefined {
    const found = this.current.get(message);
    if (found !== undefined) return found;
    const old = this.previous.get(message);
    if (old !== undefined) {
      this.previous.delete(message);
      this.set(message, old);
    }
    return old;
  },
  set(message: BaseMessage, core: Message): void {
    if (this.current.size >= CONVERTED_MESSAGES_KEPT / 2) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(message, core);
  },
};

/**
 * LangChain messages as core messages. `human` → user, `ai` → assistant (text and
 * reasoning blocks, `tool_calls` as tool-call parts, `usage_metadata` as usage),
 * `tool` → tool (one tool-result; `status: 'error'` → `isError`), `system` and
 * `developer` → system, a `ChatMessage` by its role. Ids: see {@link messageIds}.
 * Each core message keeps its LangChain message under `metadata.langchain.original`,
 * which is how `fromCoreMessages` gives back the very same object when core left
 * a message as it was. A message object is converted once and its core message
 * reused while its id stays the same (LangChain messages are not edited in place).
 *
 * Throws `InvalidMessageError` for message types with no core equivalent
 * (`function`, `remove`).
 */
export function toCoreMessages(messages: readonly BaseMessage[]): Message[] {
  const ids = messageIds(messages);
  return messages.map((message, index) => convertOnce(message, ids[index]!, index, messages));
}

/**
 * {@link toCoreMessages} for a history that may have grown since `previous`: only
 * the new messages are converted (all of them when a new one has no id, as its
 * derived id depends on every message before it).
 */
export function extendToCore(
  previous: Conversion<BaseMessage, Message> | undefined,
  messages: readonly BaseMessage[],
  options: ExtendToCoreOptions = {},
): Conversion<BaseMessage, Message> {
  const convertAll = options.assignIds
    ? (source: readonly BaseMessage[]) => {
        if (!source.every(hasId)) assignMessageIds(source);
        return toCoreMessages(source);
      }
    : toCoreMessages;
  return extendConversion(
    previous,
    messages,
    convertAll,
    (source, start) => {
      const rest: Message[] = [];
      for (let index = start; index < source.length; index += 1) {
        const message = source[index]!;
        if (!hasId(message)) return undefined;
        rest.push(convertOnce(message, message.id as string, index, source));
      }
      return rest;
    },
    adoptRestored,
  );
}

/** Options of {@link extendToCore}. */
export type ExtendToCoreOptions = {
  /**
   * Writes ids onto the messages that have none before a full conversion
   * (`assignMessageIds`), as a chat history that persists them wants.
   * @default false
   */
  assignIds?: boolean;
};

/**
 * Whether a history whose first messages are other objects than those `previous`
 * converted can go on from that conversion, as a checkpointer gives back the next run
 * of a thread. When `previous` holds its core messages (its session holds the history
 * loaded, and reads them), each restored message must have the id and the shape of the
 * one it replaces ({@link sameMessageShape}): their core messages stay (so do the
 * session's counts). When it let them all go (`releaseConversion`: the session held the
 * history counted), the same ids and classes in the same places are enough
 * ({@link sameMessageIds}, over those it kept):
 * whatever core reads later is converted from the restored objects. What is sent is the
 * restored objects either way (`fromCoreContext`, or the state's messages as they are).
 */
function adoptRestored(previous: Conversion<BaseMessage, Message>, messages: readonly BaseMessage[]): boolean {
  const { source } = previous;
  if (messages.length < source.length) return false;
  const { ids, classes } = previous;
  if (previous.result.length === 0 && ids?.length === source.length && classes)
    return sameMessageIds(ids, classes, messages);
  for (let index = 0; index < source.length; index += 1) {
    const before = source[index]!;
    const now = messages[index]!;
    if (before !== now && (!hasId(now) || !sameMessageShape(before, now))) return false;
  }
  return true;
}

/** The core message of `message` with `id`: the one made before, if its id is still the same. */
function convertOnce(message: BaseMessage, id: string, index: number, messages: readonly BaseMessage[]): Message {
  const cached = converted.get(message);
  if (cached !== undefined && cached.id === id) return cached;
  const core = toCoreMessage(message, id, index, messages);
  converted.set(message, core);
  return core;
}

function toCoreMessage(message: BaseMessage, id: string, index: number, messages: readonly BaseMessage[]): Message {
  const role = roleOf(message, index);
  const parts = role === 'tool' ? [toolResultPart(message as ToolMessage, index, messages)] : contentParts(message);
  if (role === 'assistant') {
    for (const call of (message as AIMessage).tool_calls ?? []) {
      parts.push({ type: 'tool-call', toolCallId: call.id ?? '', toolName: call.name, input: call.args });
    }
  }
  const usage = role === 'assistant' ? usageOf(message as AIMessage) : undefined;
  const compaction = message.additional_kwargs?.[COMPACTION_KWARG];
  // Literals of a fixed shape, no spreads: a conversation that comes back evicted converts every message.
  const metadata: Record<string, unknown> = { [ORIGINAL_MESSAGE_KEY]: new Origin(message, parts) };
  if (compaction !== undefined) metadata.compaction = compaction;
  return usage ? { id, role, parts, usage, metadata } : { id, role, parts, metadata };
}

/** The LangChain message a core message was converted from, if any. */
export function originalMessage(message: Message): BaseMessage | undefined {
  const holder = message.metadata?.[ORIGINAL_MESSAGE_KEY] as { original?: BaseMessage } | undefined;
  return holder?.original;
}

/** Whether core left `message` exactly as {@link toCoreMessages} made it from `original`. */
export function isUnchanged(message: Message, original: BaseMessage): boolean {
  const origin = message.metadata?.[ORIGINAL_MESSAGE_KEY];
  return origin instanceof Origin && origin.original === original && origin.made(message.parts);
}

function roleOf(message: BaseMessage, index: number): Role {
  const type = message.type as string;
  switch (type) {
    case 'human':
      return 'user';
    case 'ai':
      return 'assistant';
    case 'tool':
      return 'tool';
    case 'system':
    case 'developer':
      return 'system';
    case 'generic':
      return chatRole((message as BaseMessage & { role?: string }).role);
    default:
      throw new InvalidMessageError({
        index,
        problem: `LangChain message type "${type}" has no core equivalent; use HumanMessage, AIMessage, ToolMessage or SystemMessage`,
      });
  }
}

function chatRole(role: string | undefined): Role {
  if (role === 'assistant' || role === 'ai') return 'assistant';
  if (role === 'system' || role === 'developer') return 'system';
  return 'user';
}

function contentParts(message: BaseMessage): Part[] {
  const content = message.content as unknown;
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block): Part[] => {
    const part = blockToPart(block);
    return part ? [part] : [];
  });
}

function toolResultPart(message: ToolMessage, index: number, messages: readonly BaseMessage[]): Part {
  const toolCallId = message.tool_call_id ?? '';
  return {
    type: 'tool-result',
    toolCallId,
    toolName: message.name ?? toolNameBefore(messages, index, toolCallId) ?? '',
    output: message.content,
    ...(message.status === 'error' ? { isError: true } : {}),
  };
}

/** The name of tool call `toolCallId` in the last assistant message before `index` that made it. */
function toolNameBefore(messages: readonly BaseMessage[], index: number, toolCallId: string): string | undefined {
  for (let before = index - 1; before >= 0; before -= 1) {
    const message = messages[before]!;
    if (!isAssistant(message)) continue;
    const call = (message as AIMessage).tool_calls?.findLast((candidate) => (candidate.id ?? '') === toolCallId);
    if (call) return call.name;
  }
  return undefined;
}

function isAssistant(message: BaseMessage): boolean {
  const type = message.type as string;
  return (
    type === 'ai' || (type === 'generic' && chatRole((message as BaseMessage & { role?: string }).role) === 'assistant')
  );
}

function usageOf(message: AIMessage): MessageUsage | undefined {
  const usage = message.usage_metadata;
  if (!usage) return undefined;
  return { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
}
