import { InvalidMessageError, type Message, type MessageUsage, type Part, type Role } from '@compaction/core';
import type { AIMessage, BaseMessage, ToolMessage } from '@langchain/core/messages';
import { blockToPart } from './block-to-part.js';
import { messageIds } from './message-ids.js';

/** The key under core `Message.metadata` that holds the LangChain message it came from. */
export const ORIGINAL_MESSAGE_KEY = 'langchain';

/** The `additional_kwargs` key that carries core's `metadata.compaction` on messages core wrote. */
export const COMPACTION_KWARG = 'compaction';

/** Parts arrays made by {@link toCoreMessages}, with the message each came from: "unchanged" is identity. */
const projections = new WeakMap<readonly Part[], BaseMessage>();

/**
 * LangChain messages as core messages. `human` → user, `ai` → assistant (text and
 * reasoning blocks, `tool_calls` as tool-call parts, `usage_metadata` as usage),
 * `tool` → tool (one tool-result; `status: 'error'` → `isError`), `system` and
 * `developer` → system, a `ChatMessage` by its role. Ids: see {@link messageIds}.
 * Each core message keeps its LangChain message under `metadata.langchain.original`,
 * which is how `fromCoreMessages` gives back the very same object when core left
 * a message as it was.
 *
 * Throws `InvalidMessageError` for message types with no core equivalent
 * (`function`, `remove`).
 */
export function toCoreMessages(messages: readonly BaseMessage[]): Message[] {
  const ids = messageIds(messages);
  const toolNames = new Map<string, string>();
  return messages.map((message, index) => {
    const role = roleOf(message, index);
    const parts = role === 'tool' ? [toolResultPart(message as ToolMessage, toolNames)] : contentParts(message);
    if (role === 'assistant') {
      for (const call of (message as AIMessage).tool_calls ?? []) {
        const toolCallId = call.id ?? '';
        toolNames.set(toolCallId, call.name);
        parts.push({ type: 'tool-call', toolCallId, toolName: call.name, input: call.args });
      }
    }
    projections.set(parts, message);
    const usage = role === 'assistant' ? usageOf(message as AIMessage) : undefined;
    const compaction = message.additional_kwargs?.[COMPACTION_KWARG];
    return {
      id: ids[index]!,
      role,
      parts,
      ...(usage ? { usage } : {}),
      metadata: {
        [ORIGINAL_MESSAGE_KEY]: { original: message },
        ...(compaction !== undefined ? { compaction } : {}),
      },
    };
  });
}

/** The LangChain message a core message was converted from, if any. */
export function originalMessage(message: Message): BaseMessage | undefined {
  const holder = message.metadata?.[ORIGINAL_MESSAGE_KEY] as { original?: BaseMessage } | undefined;
  return holder?.original;
}

/** Whether core left `message` exactly as {@link toCoreMessages} made it from `original`. */
export function isUnchanged(message: Message, original: BaseMessage): boolean {
  return projections.get(message.parts) === original;
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

function toolResultPart(message: ToolMessage, toolNames: ReadonlyMap<string, string>): Part {
  const toolCallId = message.tool_call_id ?? '';
  return {
    type: 'tool-result',
    toolCallId,
    toolName: message.name ?? toolNames.get(toolCallId) ?? '',
    output: message.content,
    ...(message.status === 'error' ? { isError: true } : {}),
  };
}

function usageOf(message: AIMessage): MessageUsage | undefined {
  const usage = message.usage_metadata;
  if (!usage) return undefined;
  return { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
}
