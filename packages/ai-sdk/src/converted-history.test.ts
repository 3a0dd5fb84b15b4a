import { createCompactionSession, type Message, memoryStore } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resent } from './__fixtures__/prompt-copies.js';
import { promptSteps } from './__fixtures__/prompt-steps.js';
import type { PromptMessage, ProviderPrompt } from './ai-sdk-types.js';
import { promptToMessages } from './convert-prompt.js';
import type { ConvertedHistory } from './converted-history.js';
import { type ConversionSlot, messageConverter } from './message-converter.js';

const view = (messages: readonly Message[]) => messages.map(({ id, role, parts }) => ({ id, role, parts }));

/** The length of the common prefix of two id lists. */
function commonIds(a: readonly Message[], b: readonly Message[]): number {
  let same = 0;
  while (same < a.length && same < b.length && a[same]!.id === b[same]!.id) same += 1;
  return same;
}

describe('convertedHistory (a call converted, as the session reads it)', () => {
  // 300 generated call sequences: 1.8–4.0 s measured on 2 cores at a load of 9, too near the 5 s default.
  it('reads what toCore gives, never changes once handed out, and claims only messages the last call had', () => {
    fc.assert(
      fc.property(promptSteps, (sequence) => {
        const converter = messageConverter();
        const slot: ConversionSlot = {};
        let prompt: ProviderPrompt = [];
        const handedOut: { history: ConvertedHistory; messages: Message[] }[] = [];
        for (const step of sequence) {
          prompt = step(prompt);
          const history = converter.toHistory(prompt, slot);
          const messages = history.messages(0);
          expect(view(messages)).toEqual(view(promptToMessages(prompt)));
          expect(history.length).toBe(prompt.length);
          for (const [index, message] of messages.entries()) expect(history.at(index)).toBe(message);
          expect(history.at(-1)).toBeUndefined();
          expect(history.at(history.length)).toBeUndefined();
          const from = Math.floor(history.length / 2);
          expect(history.messages(from)).toEqual(messages.slice(from));
          expect(history.sameAtEnd(messages)).toBe(messages.length);
          const previous = handedOut.at(-1);
          if (history.since !== undefined) {
            // Sound: the first `unchanged` messages are the last call's, same ids and content.
            expect(history.since.source).toBe(previous!.history);
            expect(history.since.unchanged).toBeGreaterThan(0);
            expect(history.since.unchanged).toBeLessThanOrEqual(commonIds(previous!.messages, messages));
            for (let index = 0; index < history.since.unchanged; index += 1)
              expect(view([messages[index]!])).toEqual(view([previous!.messages[index]!]));
          }
          // Useful: a prompt resent as it was, or extended, is taken as the last call's messages.
          if (previous !== undefined && commonIds(previous.messages, messages) === previous.messages.length) {
            const sameObjects = previous.messages.every((message, index) => message === messages[index]);
            if (sameObjects && previous.messages.length > 0)
              expect(history.since?.unchanged).toBe(previous.messages.length);
          }
          // Only the last call's history names the one before it: no chain of old calls is kept.
          if (previous !== undefined) expect(previous.history.since).toBeUndefined();
          handedOut.push({ history, messages });
          // Every history handed out reads the same messages, however many calls came after.
          for (const earlier of handedOut) {
            const again = earlier.history.messages(0);
            expect(again).toHaveLength(earlier.messages.length);
            for (const [index, message] of again.entries()) expect(message).toBe(earlier.messages[index]);
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('lets a session read only the new messages of a grown prompt, and see an edit of an old one', async () => {
    const session = createCompactionSession({
      store: memoryStore(),
      sessionId: 'reads',
      model: 'gpt-5',
      persistHistory: false,
      settings: { contextWindow: 1_000_000 },
    });
    const converter = messageConverter();
    const slot: ConversionSlot = {};
    const text = (role: 'user' | 'assistant', value: string): PromptMessage => ({
      role,
      content: [{ type: 'text', text: value }],
    });
    const turns = Array.from({ length: 40 }, (_, index) =>
      text(index % 2 === 0 ? 'user' : 'assistant', `turn ${index}`),
    );
    async function call(prompt: ProviderPrompt): Promise<{ reads: number[]; history: Message[] }> {
      const converted = converter.toHistory(prompt, slot);
      const reads: number[] = [];
      const read = converted.messages.bind(converted);
      converted.messages = (from) => {
        reads.push(from);
        return read(from);
      };
      const prepared = await session.prepare({ history: converted });
      expect(view(prepared.messages)).toEqual(view(promptToMessages(prompt)));
      return { reads, history: await session.history() };
    }

    let prompt: ProviderPrompt = turns.slice(0, 20);
    await call(resent(prompt));
    for (let next = 20; next < 24; next += 1) {
      prompt = [...prompt, turns[next]!];
      const { reads } = await call(resent(prompt));
      expect(reads[0]).toBe(next); // only the new message
    }
    // An edit deep in the history: the session is told nothing is the same from there, and branches.
    const edited = resent(prompt);
    edited[5] = text('assistant', 'turn 5, edited');
    const { reads, history } = await call(edited);
    expect(reads[0]).toBe(0);
    expect(view(history)).toEqual(view(promptToMessages(edited)));
    // A session changed by someone else meanwhile does not take the converter's word.
    await session.append({ id: 'outside', role: 'user', parts: [{ type: 'text', text: 'from elsewhere' }] });
    const after = await call(resent([...edited, turns[24]!]));
    expect(after.reads[0]).toBe(0);
    expect(view(after.history)).toEqual(view(promptToMessages([...edited, turns[24]!])));
  });
});
