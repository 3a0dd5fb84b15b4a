import type { Message, ToolResultPart } from '@compaction/core';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { type Conversion, extendConversion } from './extend-conversion.js';
import { outputToContent, partsToContent } from './parts-to-content.js';
import { COMPACTION_KWARG, isUnchanged, originalMessage } from './to-core-messages.js';

/**
 * Core messages as LangChain messages. A message core left as it was is the very
 * LangChain object it came from (lossless: `additional_kwargs`, provider blocks,
 * reasoning signatures and all). A tool result core changed (a pruned output) is a
 * copy of the original ToolMessage with the new content. Messages core wrote (the
 * summary, its acknowledgement, synthetic results for interrupted tool calls) are
 * built from their parts and carry `additional_kwargs: { lc_source: 'compaction',
 * compaction }`. A core message with several tool results becomes one ToolMessage each.
 */
export function fromCoreMessages(messages: readonly Message[]): BaseMessage[] {
  const converted: BaseMessage[] = [];
  for (const message of messages) {
    const original = originalMessage(message);
    if (original && isUnchanged(message, original)) converted.push(original);
    else converted.push(...fromCoreMessage(message));
  }
  return converted;
}

/**
 * {@link fromCoreMessages} for a context that may only have grown since `previous`
 * (the same core message objects first, as a session returns them between two
 * compactions): only the new messages are converted.
 */
export function extendFromCore(
  previous: Conversion<Message, BaseMessage> | undefined,
  messages: readonly Message[],
): Conversion<Message, BaseMessage> {
  return extendConversion(previous, messages, fromCoreMessages, (source, start) =>
    fromCoreMessages(source.slice(start)),
  );
}

/** One core message as LangChain messages (several only for several tool results). */
export function fromCoreMessage(message: Message): BaseMessage[] {
  const original = originalMessage(message);
  if (original && isUnchanged(message, original)) return [original];
  const results = message.parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
  const built: BaseMessage[] = [];
  const main = mainMessage(message, original);
  if (main) built.push(main);
  for (const result of results) {
    const id = results.length === 1 && built.length === 0 ? message.id : `${message.id}:${result.toolCallId}`;
    built.push(toolMessage(result, id, message, original));
  }
  return built;
}

function extraKwargs(message: Message, original: BaseMessage | undefined): Record<string, unknown> {
  const compaction = message.metadata?.compaction;
  if (compaction !== undefined)
    return { ...original?.additional_kwargs, lc_source: 'compaction', [COMPACTION_KWARG]: compaction };
  return { ...original?.additional_kwargs };
}

/** The non-tool-result part of a message (undefined when it has nothing but results). */
function mainMessage(message: Message, original: BaseMessage | undefined): BaseMessage | undefined {
  const fields = {
    id: message.id,
    content: partsToContent(message.parts),
    additional_kwargs: extraKwargs(message, original),
    ...(original?.name !== undefined ? { name: original.name } : {}),
    ...(original ? { response_metadata: original.response_metadata } : {}),
  };
  switch (message.role) {
    case 'system':
      return new SystemMessage(fields);
    case 'user':
      return message.parts.every((part) => part.type === 'tool-result') && message.parts.length > 0
        ? undefined
        : new HumanMessage(fields);
    case 'assistant': {
      const calls = message.parts.flatMap((part) =>
        part.type === 'tool-call'
          ? [
              {
                id: part.toolCallId,
                name: part.toolName,
                args: part.input as Record<string, unknown>,
                type: 'tool_call' as const,
              },
            ]
          : [],
      );
      const usage = message.usage;
      return new AIMessage({
        ...fields,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...(usage
          ? {
              usage_metadata: {
                input_tokens: usage.inputTokens ?? 0,
                output_tokens: usage.outputTokens ?? 0,
                total_tokens: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
              },
            }
          : {}),
      });
    }
    default:
      return undefined;
  }
}

function toolMessage(
  result: ToolResultPart,
  id: string,
  message: Message,
  original: BaseMessage | undefined,
): ToolMessage {
  const source = original && ToolMessage.isInstance(original) ? original : undefined;
  const name = source ? source.name : result.toolName || undefined;
  return new ToolMessage({
    id,
    tool_call_id: result.toolCallId,
    content: outputToContent(result.output),
    status: result.isError ? 'error' : (source?.status ?? 'success'),
    additional_kwargs: extraKwargs(message, source),
    ...(source ? { response_metadata: source.response_metadata, artifact: source.artifact } : {}),
    ...(name !== undefined ? { name } : {}),
  });
}
