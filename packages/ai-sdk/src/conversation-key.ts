import type { Message } from '@compaction/core';
import { nextContentId } from '@compaction/core/internal';
import { type AiSdkMessage, CONVERSATION_ID_PREFIX, leadingSystemMessages } from './to-core-messages.js';

/**
 * The store key of a conversation that has no id: the content id of its second
 * non-system message (the first reply), or of the first while there is no reply
 * yet. Content ids are chained, so the key names the opening exchange: two
 * conversations that open with the same "hi" still get different keys once the
 * model has answered. Every later request of the same conversation starts with
 * those messages, so it finds the same state; whether the state still applies is
 * decided by core (its `firstKeptMessageId` must be among the incoming ids, which
 * an edited earlier message rules out). `undefined` when there is no such message.
 */
export function conversationKey(messages: MessageList): string | undefined {
  let first: MessageHead | undefined;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages.at(index)!;
    if (message.role === 'system') continue;
    if (first) return message.id;
    first = message;
  }
  return first?.id;
}

/** What {@link conversationKey} reads of a message. */
export type MessageHead = Pick<Message, 'id' | 'role'>;

/** Messages read by index: an array, or a call's converted history (which is not copied into one). */
export type MessageList = { readonly length: number; at(index: number): MessageHead | undefined };

/**
 * {@link conversationKey} read from the AI SDK messages themselves, before any
 * conversion: the content ids of the conversation's opening messages only (two,
 * unless system messages sit among them), so a call finds its conversation's kept
 * entry — the session and the conversion beside it — before converting anything.
 * The same key as `conversationKey(toCoreMessages(messages))`; a conversion may
 * still give another (an edit its sampled fingerprint misses gets a full-content
 * id), which the caller checks.
 */
export function promptConversationKey(messages: readonly AiSdkMessage[]): string | undefined {
  let id: string | undefined;
  let first: string | undefined;
  for (let index = leadingSystemMessages(messages); index < messages.length; index += 1) {
    const message = messages[index]!;
    id = nextContentId(message, id, CONVERSATION_ID_PREFIX);
    if (message.role === 'system') continue;
    if (first !== undefined) return id;
    first = id;
  }
  return first;
}
