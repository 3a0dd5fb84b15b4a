import type { Message } from '@compaction/core';

/**
 * The store key of a conversation that has no id: the content id of its first
 * non-system message. Every later request of the same conversation starts with
 * that message, so it finds the same state; whether the state still applies is
 * decided by core (its `firstKeptMessageId` must be among the incoming ids, which
 * an edited earlier message rules out). `undefined` when there is no such message.
 */
export function conversationKey(messages: readonly Message[]): string | undefined {
  return messages.find((message) => message.role !== 'system')?.id;
}
