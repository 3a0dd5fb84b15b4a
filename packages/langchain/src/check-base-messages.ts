import { describeValue, InvalidMessageError } from '@compaction/core';
import { type BaseMessage, isBaseMessage } from '@langchain/core/messages';

/**
 * Checks what `CompactingChatMessageHistory.addMessages` (and `addMessage`) received, before
 * anything is stored: an array of LangChain `BaseMessage`s. A string, or a plain
 * `{ role, content }` object, is an `InvalidMessageError` saying to make the message with
 * its class (`new HumanMessage('…')`); nothing was stored.
 *
 * @param where - the method, for the message (`addMessages`).
 * @example
 * ```ts
 * checkBaseMessages([new HumanMessage('hi')], 'addMessages'); // passes
 * ```
 */
export function checkBaseMessages(messages: unknown, where: string): asserts messages is BaseMessage[] {
  const advice = "LangChain messages, e.g. new HumanMessage('hi') or new AIMessage('hello'); nothing was stored";
  if (!Array.isArray(messages)) {
    throw new InvalidMessageError({
      index: -1,
      problem: `${where} takes an array of ${advice}; got ${describeValue(messages)}`,
    });
  }
  const index = messages.findIndex((message) => !isBaseMessage(message));
  if (index === -1) return;
  throw new InvalidMessageError({
    index,
    problem: `${where} takes ${advice}; got ${describeValue(messages[index])}`,
  });
}
