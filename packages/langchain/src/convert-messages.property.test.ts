import { type Message, parseMessages } from '@compaction/core';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
} from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/message-arbitraries.js';
import { extendFromCore, fromCoreMessages } from './from-core-messages.js';
import { messageIds } from './message-ids.js';
import { extendToCore, ORIGINAL_MESSAGE_KEY, toCoreMessages } from './to-core-messages.js';

/** A core message as it would come back from JSON storage: without the LangChain original. */
function stored(message: Message): Message {
  const { [ORIGINAL_MESSAGE_KEY]: _original, ...metadata } = message.metadata ?? {};
  return JSON.parse(JSON.stringify({ ...message, metadata }));
}

/** The messages as a database-backed chat history gives them back: LangChain's stored form, new objects. */
function copies(messages: readonly BaseMessage[]): BaseMessage[] {
  return mapStoredMessagesToChatMessages(JSON.parse(JSON.stringify(mapChatMessagesToStoredMessages([...messages]))));
}

/**
 * How many messages, from the start, the round trip of {@link copies} gave back with the same values.
 * LangChain's stored messages escape an object with an `lc` key (`{ __lc_escaped__: … }`, never undone
 * on the way back) and drop a `__proto__` key (copied by assignment) in tool arguments and blocks:
 * those come back other values, and rightly get other content ids from there on.
 */
function sameValuesUpTo(messages: readonly BaseMessage[], restored: readonly BaseMessage[]): number {
  const values = (message: BaseMessage) =>
    JSON.stringify([message.content, (message as BaseMessage & { tool_calls?: unknown }).tool_calls ?? null]);
  const index = messages.findIndex((message, at) => values(message) !== values(restored[at]!));
  return index < 0 ? messages.length : index;
}

/** Tool arguments LangChain's stored messages give back other values: an `lc` key, a `__proto__` key (as `JSON.parse` makes it). */
const alteredByRoundTrip: BaseMessage[] = [
  new HumanMessage('Read both.'),
  new AIMessage({
    content: '',
    tool_calls: [{ name: 'read', args: { lc: 1, path: 'a.ts' }, id: 'c1', type: 'tool_call' }],
  }),
  new AIMessage({
    content: '',
    tool_calls: [
      { name: 'read', args: JSON.parse('{"__proto__":{"x":1},"path":"b.ts"}'), id: 'c2', type: 'tool_call' },
    ],
  }),
  new HumanMessage('Thanks.'),
];

describe('LangChain ↔ core conversion (property)', () => {
  it('gives back the very same LangChain objects for every message core did not change', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const core = toCoreMessages(messages);
        expect(() => parseMessages(core)).not.toThrow();
        const back = fromCoreMessages(core);
        expect(back).toHaveLength(messages.length);
        for (const [index, message] of back.entries()) expect(message).toBe(messages[index]);
      }),
    );
  });

  it('is lossless for everything core models, also without the originals (stored as JSON)', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const core = toCoreMessages(messages);
        const rebuilt = fromCoreMessages(core.map(stored));
        expect(rebuilt).toHaveLength(messages.length);
        const again = toCoreMessages(rebuilt);
        expect(again.map(stored)).toEqual(core.map(stored));
        for (const [index, message] of rebuilt.entries()) {
          const original = messages[index] as BaseMessage & { tool_calls?: unknown[]; tool_call_id?: string };
          expect(message.id).toBe(core[index]!.id);
          expect(message.text).toBe(original.text);
          if (original.tool_calls?.length) expect((message as typeof original).tool_calls).toEqual(original.tool_calls);
          if (original.tool_call_id) expect((message as typeof original).tool_call_id).toBe(original.tool_call_id);
        }
      }),
    );
  });

  it('derives the same ids for the same content, and new ids from an edited message on', () => {
    fc.assert(
      fc.property(conversation, fc.nat(), (messages, pick) => {
        const ids = messageIds(messages);
        expect(new Set(ids).size).toBe(ids.length);
        // Given back with the same values, the same ids (all of them, but for a value the round trip
        // altered: seed -1522476916); the same values in other new objects, the same ids again.
        const restored = copies(messages);
        const restoredIds = messageIds(restored);
        const same = sameValuesUpTo(messages, restored);
        expect(restoredIds.slice(0, same)).toEqual(ids.slice(0, same));
        expect(messageIds(copies(messages))).toEqual(restoredIds);
        if (messages.length === 0) return;
        const edited = copies(messages);
        const at = pick % edited.length;
        edited[at]!.content = `${edited[at]!.text} (edited)`;
        const editedIds = messageIds(edited);
        expect(editedIds.slice(0, at)).toEqual(restoredIds.slice(0, at));
        for (let index = at; index < ids.length; index += 1) {
          if (!messages[index]!.id) expect(editedIds[index]).not.toBe(restoredIds[index]);
        }
      }),
      {
        examples: [
          [alteredByRoundTrip, 0],
          [alteredByRoundTrip, 3],
        ],
      },
    );
  });

  it('converting a grown conversation from the last conversion gives what a full conversion gives', () => {
    fc.assert(
      fc.property(conversation, fc.nat(), (messages, pick) => {
        const at = messages.length === 0 ? 0 : pick % (messages.length + 1);
        const previous = extendToCore(undefined, messages.slice(0, at));
        const grown = extendToCore(previous, messages);
        // New objects: converted from scratch, with no conversion to reuse (as far as the round trip
        // gave back the same values).
        const restored = copies(messages);
        const same = sameValuesUpTo(messages, restored);
        expect(grown.result.slice(0, same).map(stored)).toEqual(toCoreMessages(restored).slice(0, same).map(stored));
        const sent = extendFromCore(extendFromCore(undefined, grown.result.slice(0, at)), grown.result);
        expect(sent.result).toEqual(fromCoreMessages(grown.result));
        for (const [index, message] of sent.result.entries()) expect(message).toBe(messages[index]);
      }),
      {
        examples: [
          [alteredByRoundTrip, 0],
          [alteredByRoundTrip, 3],
        ],
      },
    );
  });
});
