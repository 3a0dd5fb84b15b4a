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

/**
 * {@link fromCoreMessages} for a context prepared from `history` (the conversion of
 * a thread restored as other objects, see `extendToCore`): a message core left as
 * it was is the restored object that stands for it in `history.source`, not the
 * one it was converted from. The context's messages from the history come in the
 * history's order after what core wrote first, so they are found from the end in
 * one pass over the context.
 */
export function fromCoreContext(
  context: readonly Message[],
  history: Conversion<BaseMessage, Message>,
): Conversion<Message, BaseMessage> {
  const { source, result } = history;
  const reversed: BaseMessage[] = [];
  let at = result.length - 1;
  for (let index = context.length - 1; index >= 0; index -= 1) {
    const message = context[index]!;
    const held = at >= 0 ? result[at] : undefined;
    if (message === held) {
      reversed.push(source[at]!);
      at -= 1;
      continue;
    }
    const built = fromCoreMessage(message);
    for (let part = built.length - 1; part >= 0; part -= 1) reversed.push(built[part]!);
    if (held !== undefined && message.id === held.id) at -= 1; // core's version of that history message
  }
  return { source: context.slice(), result: reversed.reverse() };
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
