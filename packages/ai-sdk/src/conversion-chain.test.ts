import type { Message } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelMessagesArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { deepCopy, resent } from './__fixtures__/prompt-copies.js';
import { promptSteps } from './__fixtures__/prompt-steps.js';
import type { PromptMessage, ProviderPrompt } from './ai-sdk-types.js';
import { promptToMessages } from './convert-prompt.js';
import type { ConvertedHistory } from './converted-history.js';
import { type ConversionSlot, messageConverter, slotHeldMessages, slotMessages } from './message-converter.js';
import { type AiSdkMessage, originalMessage } from './to-core-messages.js';

/** What a core message says, and the AI SDK message it goes back as when core changes it. */
const view = (messages: readonly Message[]) =>
  messages.map((message) => ({
    id: message.id,
    role: message.role,
    parts: message.parts,
    original: originalMessage(message),
  }));

describe('a released conversion (the session holds the history counted, not loaded)', () => {
  // 300 generated call sequences, each converted twice: 2.6 s measured on 2 cores at a load of 9 (5 s default).
  it('property: gives the same ids and messages as one never released, call after call, and every history handed out still reads the same', () => {
    fc.assert(
      fc.property(promptSteps, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (sequence, releases) => {
        const released = messageConverter();
        const kept = messageConverter();
        const releasedSlot: ConversionSlot = {};
        const keptSlot: ConversionSlot = {};
        let prompt: ProviderPrompt = [];
        const handedOut: { history: ConvertedHistory; messages: ReturnType<typeof view> }[] = [];
        for (const [call, step] of sequence.entries()) {
          prompt = step(prompt);
          const history = released.toHistory(prompt, releasedSlot);
          const reference = kept.toHistory(prompt, keptSlot);
          // What the comparison proved unchanged is the same with the originals let go.
          expect(history.since?.unchanged ?? 0).toBe(reference.since?.unchanged ?? 0);
          expect(view(history.messages(0))).toEqual(view(reference.messages(0)));
          expect(view(history.messages(0))).toEqual(view(promptToMessages(prompt)));
          for (let index = 0; index < history.length; index += 1) {
            const { id, role } = history.head(index)!;
            expect({ id, role }).toEqual({ id: reference.at(index)!.id, role: reference.at(index)!.role });
          }
          handedOut.push({ history, messages: view(history.messages(0)) });
          if (releases[call]) {
            released.release(releasedSlot);
            expect(slotHeldMessages(releasedSlot)).toBe(0);
            expect(slotMessages(releasedSlot)).toBe(prompt.length);
          }
          for (const earlier of handedOut) expect(view(earlier.history.messages(0))).toEqual(earlier.messages);
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('property: ModelMessage lists (string content, images, approvals) come back the same after a release', () => {
    fc.assert(
      fc.property(modelMessagesArbitrary, modelMessagesArbitrary, (first, more) => {
        const converter = messageConverter();
        const slot: ConversionSlot = {};
        const messages = first as unknown as AiSdkMessage[];
        converter.toHistory(messages, slot);
        converter.release(slot);
        const grown = [...deepCopy(messages), ...(more as unknown as AiSdkMessage[])];
        const history = converter.toHistory(grown, slot);
        expect(view(history.messages(0))).toEqual(view(messageConverter().toCore(grown)));
      }),
      { numRuns: 200 },
    );
  });

  it('gives back a message with a key the spec does not define exactly as it came, after a release, and sees that key edited', () => {
    // ModelMessage lists are the application's own objects (prepareStep): an `id` or a part's
    // `providerMetadata` rides along. Such a message is kept whole, not value by value.
    const prompt = [
      { role: 'user', content: [{ type: 'text', text: 'read' }], id: 'u1' },
      {
        role: 'assistant',
        id: 'a1',
        content: [
          { type: 'text', text: 'Reading.', providerMetadata: { acme: { tokens: 3 } } },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'read',
            input: { path: 'a.ts' },
            providerOptions: { x: {} },
          },
        ],
        providerOptions: { acme: { cache: true } },
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'x' } }],
      },
      { role: 'user', content: 'next', id: 'u2' },
    ] as unknown as AiSdkMessage[];
    const converter = messageConverter();
    const slot: ConversionSlot = {};
    const before = view(converter.toHistory(prompt, slot).messages(0));
    converter.release(slot);
    const resentPrompt = deepCopy(prompt);
    const history = converter.toHistory(resentPrompt, slot);
    expect(history.since?.unchanged).toBe(4);
    expect(history.head(1)).toEqual({ id: before[1]!.id, role: 'assistant' });
    const after = history.messages(0).map((message) => originalMessage(message));
    for (const [index, message] of after.entries()) expect(message).toStrictEqual(prompt[index]);
    expect(view(history.messages(0))).toEqual(before);
    // Its ids are a fresh conversion's: an edit of such a key is an edit, as in a content id.
    converter.release(slot);
    const edited = deepCopy(prompt) as unknown as Record<string, unknown>[];
    edited[1] = { ...edited[1], id: 'a2' };
    const again = converter.toHistory(edited as unknown as AiSdkMessage[], slot);
    expect(again.since?.unchanged).toBe(1);
    expect(view(again.messages(0))).toEqual(view(messageConverter().toCore(edited as unknown as AiSdkMessage[])));
    // Cut back before the last user message (where the originals were let go): a message kept
    // whole is still compared in full there, so it keeps its id (a fresh conversion's).
    converter.release(slot);
    const cut = deepCopy(edited).slice(0, 2) as unknown as AiSdkMessage[];
    const after2 = converter.toHistory(cut, slot);
    expect(after2.since?.unchanged).toBe(2);
    expect(view(after2.messages(0))).toEqual(view(messageConverter().toCore(cut)));
  });

  it('makes a message again only when it is asked for, once, and reads an id or role without making it', () => {
    const converter = messageConverter();
    const slot: ConversionSlot = {};
    const prompt: ProviderPrompt = Array.from({ length: 30 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: `turn ${index}` }],
    }));
    const history = converter.toHistory(prompt, slot);
    const ids = history.messages(0).map((message) => message.id);
    converter.release(slot);
    expect(slotHeldMessages(slot)).toBe(0);
    const { id, role } = history.head(1)!;
    expect({ id, role }).toEqual({ id: ids[1], role: 'assistant' });
    expect(slotHeldMessages(slot)).toBe(0);
    const again = history.messages(28);
    expect(again.map((message) => message.id)).toEqual(ids.slice(28));
    expect(slotHeldMessages(slot)).toBe(30);
    expect(history.at(3)).toBe(history.messages(0)[3]);
  });

  it('sees an edit of an old message after a release, deep in a tool input, and a key the spec does not define where it compares in full', () => {
    const converter = messageConverter();
    const slot: ConversionSlot = {};
    const prompt: ProviderPrompt = [
      { role: 'user', content: [{ type: 'text', text: 'read' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: { deep: ['a.ts'] } } }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'x' } }],
      },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ];
    const first = converter.toHistory(prompt, slot).messages(0);
    converter.release(slot);
    const edited = resent(prompt);
    (edited[1]!.content as { input: unknown }[])[0]!.input = { path: { deep: ['b.ts'] } };
    const history = converter.toHistory(edited, slot);
    expect(history.since?.unchanged).toBe(1);
    expect(view(history.messages(0))).toEqual(view(promptToMessages(edited)));
    expect(history.at(1)!.id).not.toBe(first[1]!.id);
    converter.release(slot);
    // The last user message moved back (a cut): the messages before the old one are compared
    // by value where their originals were let go, and one with a key the spec does not define
    // counts as different.
    const cut = resent(edited).slice(0, 3) as PromptMessage[];
    cut[2] = { ...cut[2]!, extra: true } as unknown as PromptMessage;
    const after = converter.toHistory(cut, slot);
    expect(after.since?.unchanged).toBe(2);
    expect(view(after.messages(0))).toEqual(view(promptToMessages(cut)));
  });
});
