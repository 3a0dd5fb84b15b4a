import type { Message } from '@compaction/core';
import { chainedContentIds } from '@compaction/core/internal';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import { messageToCore } from './message-to-core.js';

/** Options of {@link toCoreMessages}. */
export type ToCoreMessagesOptions = {
  /**
   * How core ids are made. `message`: from the Mastra ids (the first core message
   * of a Mastra message has its id, later ones `<id>#<step>` and `<id>#<step>:results`);
   * right when the ids are stable, as for messages Mastra `Memory` stores.
   * `content`: `chainedContentIds` of the core messages, for messages whose ids
   * change between requests (a conversation re-sent without `Memory` gets fresh ids).
   * @default 'message'
   */
  ids?: 'message' | 'content';
};

/**
 * Mastra messages as core messages, lossless: `fromCoreMessages` rebuilds them exactly.
 *
 * A user (or system) message becomes one core message. An assistant message is
 * split at its `step-start` parts, the way Mastra builds the prompt: each step
 * becomes an assistant message (text, reasoning, files and a `tool-call` per
 * tool invocation) followed, when the step's tools have finished, by a `tool`
 * message with their results (`output-error` and `output-denied` as error
 * results; a stored `toModelOutput` is the output the model reads). Parts with
 * no core counterpart (`step-start`, `data-*`, sources) are carried in
 * `metadata.mastra` with everything else needed for the way back. The keys of
 * `content.metadata` core reads, `pinned` and `synthetic` (see core's `Message`),
 * are set on every core message made from the Mastra message.
 *
 * @example
 * ```ts
 * const core = toCoreMessages(messageList.get.all.db());
 * ```
 */
export function toCoreMessages(messages: readonly MastraDBMessage[], options: ToCoreMessagesOptions = {}): Message[] {
  const core = messages.flatMap(messageToCore);
  if (options.ids !== 'content') return core;
  const ids = chainedContentIds(core.map((message) => ({ role: message.role, parts: message.parts })));
  return core.map((message, index) => ({ ...message, id: ids[index]! }));
}
