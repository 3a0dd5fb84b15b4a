import { InvalidMessageError, memoryStore } from '@compaction/core';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactingChatMessageHistory } from './compacting-chat-message-history.js';

/** Something a newcomer passes for a message: a string, a `{ role, content }` object, a number, nothing. */
const notAMessage = fc.oneof(
  fc.string(),
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.string() }),
  fc.record({ type: fc.constantFrom('human', 'ai'), content: fc.string() }),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
);
const aMessage = fc
  .tuple(fc.constantFrom('human', 'ai', 'system'), fc.string({ minLength: 1 }))
  .map(([kind, text]) =>
    kind === 'human' ? new HumanMessage(text) : kind === 'ai' ? new AIMessage(text) : new SystemMessage(text),
  );

describe('addMessages over generated batches', () => {
  it('stores a batch of LangChain messages whole, and refuses one with anything else in it (InvalidMessageError at its index), storing nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 3, arbitrary: aMessage }, { weight: 1, arbitrary: notAMessage }), { maxLength: 8 }),
        async (batch) => {
          const wrapped = new InMemoryChatMessageHistory();
          const store = memoryStore();
          const chat = new CompactingChatMessageHistory({ history: wrapped, sessionId: 's', store });
          const firstBad = batch.findIndex(
            (item) => !(item instanceof HumanMessage || item instanceof AIMessage || item instanceof SystemMessage),
          );
          const error = await chat.addMessages(batch as BaseMessage[]).then(
            () => undefined,
            (thrown: unknown) => thrown,
          );
          if (firstBad === -1) {
            expect(error).toBeUndefined();
            expect((await wrapped.getMessages()).length).toBe(batch.length);
          } else {
            expect(InvalidMessageError.isInstance(error)).toBe(true);
            expect((error as InvalidMessageError).index).toBe(firstBad);
            expect(await wrapped.getMessages()).toEqual([]);
            expect(await store.loadRecord('s')).toBeUndefined();
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
