import { describeValue, InvalidMessageError, type Message, type Part } from '@compaction/core';
import { chainedContentIds } from '@compaction/core/internal';
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
  const leading = leadingSystemMessages(messages);
  const ids = [
    ...chainedContentIds(messages.slice(0, leading), SYSTEM_ID_PREFIX),
    ...chainedContentIds(messages.slice(leading), CONVERSATION_ID_PREFIX),
  ];
  return messages.map((message, index) => toCoreMessage(message, ids[index]!, index));
}

/** The id prefix of the leading system messages' chain. */
export const SYSTEM_ID_PREFIX = 'sys_';

/** The id prefix of the conversation's chain (everything after the leading system messages). */
export const CONVERSATION_ID_PREFIX = 'm_';

/** How many system messages lead `messages`. */
export function leadingSystemMessages(messages: readonly AiSdkMessage[]): number {
  let leading = 0;
  while (leading < messages.length && messages[leading]!.role === 'system') leading += 1;
  return leading;
}

/**
 * One AI SDK message as a core message with the given id, keeping the original (see `toCoreMessages`).
 *
 * @param index - where the message is in the prompt, for an `InvalidMessageError` (content that
 *   is neither a string nor an array of parts, or a part `partToCore` refuses).
 * @default index 0
 */
export function toCoreMessage(message: AiSdkMessage, id: string, index = 0): Message {
  // Made to size (`map`), not grown by `push`, which leaves room for 16 more parts in
  // every message: core messages live as long as their conversation is kept.
  const content = contentParts(message);
  if (!Array.isArray(content)) {
    throw new InvalidMessageError({
      index,
      problem: `content must be a string or an array of parts, got ${describeValue(content)}`,
    });
  }
  const converted = content.map((part) => partToCore(part, index));
  const isPart = (part: Part | undefined): part is Part => part !== undefined;
  const parts = converted.every(isPart) ? converted : converted.filter(isPart).slice();
  return { id, role: message.role, parts, metadata: { [ORIGINAL_MESSAGE_KEY]: { original: message } } };
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
