import { chainedContentIds, type Message, type Part } from '@compaction/core';
import type { ModelMessage } from 'ai';
import type { PromptMessage } from './ai-sdk-types.js';
import { type AiSdkPart, partToCore } from './part-to-core.js';

/** A message of either AI SDK shape: the provider prompt or `ModelMessage`. */
export type AiSdkMessage = PromptMessage | ModelMessage;

/** The key under `Message.metadata` that holds the AI SDK message a core message came from. */
export const ORIGINAL_MESSAGE_KEY = 'aiSdk';

/**
 * AI SDK messages as core messages. Ids are content ids (`chainedContentIds`):
 * the leading system messages are chained on their own (`sys_…`), the
 * conversation after them from its first message (`m_…`), so the same history
 * re-sent gets the same ids — even when the system prompt changes between
 * requests — and an edited message changes its id and every id after it.
 * Each core message keeps its original under `metadata.aiSdk.original`, which
 * is how the way back is lossless.
 */
export function toCoreMessages(messages: readonly AiSdkMessage[]): Message[] {
  let leading = 0;
  while (leading < messages.length && messages[leading]!.role === 'system') leading += 1;
  const ids = [
    ...chainedContentIds(messages.slice(0, leading), 'sys_'),
    ...chainedContentIds(messages.slice(leading), 'm_'),
  ];
  return messages.map((message, index) => ({
    id: ids[index]!,
    role: message.role,
    parts: contentParts(message).flatMap((part): Part[] => {
      const core = partToCore(part);
      return core ? [core] : [];
    }),
    metadata: { [ORIGINAL_MESSAGE_KEY]: { original: message } },
  }));
}

/** A message's content as parts (string content is one text part). */
export function contentParts(message: AiSdkMessage): AiSdkPart[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** The AI SDK message a core message was converted from, if any. */
export function originalMessage(message: Message): AiSdkMessage | undefined {
  const holder = message.metadata?.[ORIGINAL_MESSAGE_KEY] as { original?: AiSdkMessage } | undefined;
  return holder?.original;
}
