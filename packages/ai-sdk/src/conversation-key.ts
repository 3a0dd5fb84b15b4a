import type { Message } from '@compaction/core';

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
export function conversationKey(messages: readonly Message[]): string | undefined {
  let first: Message | undefined;
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (first) return message.id;
    first = message;
  }
  return first?.id;
}
