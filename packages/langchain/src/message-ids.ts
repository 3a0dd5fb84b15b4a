import { chainedContentIds } from '@compaction/core/internal';
import type { BaseMessage } from '@langchain/core/messages';

/** Prefix of the ids derived for LangChain messages that have none. */
export const DERIVED_ID_PREFIX = 'lc_';

/**
 * The id of every message: its own `id`, or one derived from content with core's
 * `chainedContentIds` (each derived id hashes the message's content and everything
 * before it, never the ids). The same history gets the same ids on every call,
 * also when a chat-history backend does not store ids; an edited message changes
 * the derived ids from that message on.
 */
export function messageIds(messages: readonly BaseMessage[]): string[] {
  if (messages.every(hasId)) return messages.map((message) => message.id as string);
  const derived = chainedContentIds(messages.map(idFreeContent), DERIVED_ID_PREFIX);
  return messages.map((message, index) => (hasId(message) ? (message.id as string) : derived[index]!));
}

/**
 * Writes the ids of {@link messageIds} onto the messages that have none (`message.id`,
 * which is where LangChain keeps them and what chat histories persist). Returns the ids.
 */
export function assignMessageIds(messages: readonly BaseMessage[]): string[] {
  const ids = messageIds(messages);
  for (const [index, message] of messages.entries()) {
    if (!hasId(message)) message._updateId(ids[index]);
  }
  return ids;
}

/** Whether a message carries its own id (a non-empty string). */
export function hasId(message: BaseMessage): boolean {
  return typeof message.id === 'string' && message.id.length > 0;
}

/** What a message says, without its id: the input of the content hash. */
function idFreeContent(message: BaseMessage): unknown {
  const fields = message as BaseMessage & {
    tool_calls?: { id?: string; name: string; args: unknown }[];
    tool_call_id?: string;
  };
  return {
    type: message.type,
    content: message.content,
    toolCalls: fields.tool_calls?.map(({ id, name, args }) => ({ id, name, args })),
    toolCallId: fields.tool_call_id,
  };
}
