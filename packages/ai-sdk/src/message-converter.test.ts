import { type Message, PRUNED_OUTPUT_MARKER } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { resent } from './__fixtures__/prompt-copies.js';
import type { PromptMessage, ProviderPrompt } from './ai-sdk-types.js';
import { messagesToPrompt, promptToMessages } from './convert-prompt.js';
import { messageConverter } from './message-converter.js';

const text = (role: 'user' | 'assistant', value: string): PromptMessage => ({
  role,
  content: [{ type: 'text', text: value }],
});

const system: PromptMessage = { role: 'system', content: 'You are terse.' };
const turns = (count: number): PromptMessage[] =>
  Array.from({ length: count }, (_, index) => text(index % 2 === 0 ? 'user' : 'assistant', `turn ${index}`));

/** What `promptToMessages` gives, without the originals (which may be equal objects of an earlier call). */
const view = (messages: readonly Message[]) => messages.map(({ id, role, parts }) => ({ id, role, parts }));

describe('messageConverter', () => {
  it('gives the ids and parts of promptToMessages, call after call of a growing conversation', () => {
    const converter = messageConverter();
    let prompt: ProviderPrompt = [system, ...turns(3)];
    for (let call = 0; call < 4; call += 1) {
      const sent = resent(prompt);
      expect(view(converter.toCore(sent))).toEqual(view(promptToMessages(sent)));
      prompt = [...prompt, text(call % 2 === 0 ? 'assistant' : 'user', `reply ${call}`)];
    }
  });

  it('reuses the core messages of unchanged messages and converts the rest', () => {
    const converter = messageConverter();
    const prompt = [system, ...turns(4)];
    const first = converter.toCore(prompt);
    const second = converter.toCore(resent([...prompt, text('user', 'next')]));
    expect(second.slice(0, 5)).toEqual(first);
    for (const [index, message] of first.entries()) expect(second[index]).toBe(message);

    const edited = converter.toCore(resent([system, ...turns(2), text('user', 'edited'), ...turns(4).slice(3)]));
    expect(edited.slice(0, 3).every((message, index) => message === first[index])).toBe(true);
    expect(edited[3]!.id).not.toBe(first[3]!.id);
    expect(edited[4]!.id).not.toBe(first[4]!.id);
    expect(view(edited)).toEqual(view(promptToMessages([system, ...turns(2), text('user', 'edited'), turns(4)[3]!])));
  });

  it('gives an edited message a new id even where the sampled fingerprint misses the edit', () => {
    const converter = messageConverter();
    const long = 'a'.repeat(10_000);
    // Same length, one character changed at a position the fingerprint does not sample.
    const edited = `${long.slice(0, 5_001)}b${long.slice(5_002)}`;
    const before = converter.toCore([text('user', long), text('assistant', 'ok'), text('user', 'next')]);
    const after = converter.toCore([text('user', edited), text('assistant', 'ok'), text('user', 'next')]);
    expect(promptToMessages([text('user', edited)])[0]!.id).toBe(before[0]!.id); // the fingerprint alone misses it
    expect(after[0]!.id).not.toBe(before[0]!.id);
    expect(after[2]!.id).not.toBe(before[2]!.id);
  });

  it('keeps the conversation ids when only the system prompt changes', () => {
    const converter = messageConverter();
    const first = converter.toCore([system, ...turns(4)]);
    const changed = converter.toCore(resent([{ role: 'system', content: 'Today is Monday.' }, ...turns(4)]));
    expect(changed[0]!.id).not.toBe(first[0]!.id);
    expect(changed.slice(1)).toEqual(first.slice(1));
  });

  it('keeps conversations apart, also beyond the number it remembers', () => {
    const converter = messageConverter(1);
    const one = [system, ...turns(3)];
    const two = [system, text('user', 'another'), text('assistant', 'chat'), text('user', 'here')];
    for (let round = 0; round < 3; round += 1) {
      expect(view(converter.toCore(resent(one)))).toEqual(view(promptToMessages(one)));
      expect(view(converter.toCore(resent(two)))).toEqual(view(promptToMessages(two)));
    }
  });

  it('gives back the incoming prompt objects for what core left alone: a context core left whole is the prompt itself', () => {
    // Before, unchanged messages came back as the objects first seen (`prompt`'s); now as this call's (`later`'s).
    const converter = messageConverter();
    const prompt = [system, ...turns(4)];
    converter.toCore(prompt);
    const later = resent([...prompt, text('user', 'next')]);
    const converted = converter.toCore(later);
    const back = converter.fromCore(converted, converted, later);
    expect(back).toBe(later);
    expect(back).toStrictEqual(later);
    for (const [index, message] of later.entries()) expect(back[index]).toBe(message);
    // A context that keeps the pinned system message and the last turns: those are this call's objects too.
    const summary: Message = { id: 'summary', role: 'user', parts: [{ type: 'text', text: 'summary' }] };
    const compacted = converter.fromCore([converted[0]!, summary, ...converted.slice(3)], converted, later);
    expect(compacted).toHaveLength(later.length - 1);
    expect(compacted[0]).toBe(later[0]);
    expect(compacted[1]).toStrictEqual({ role: 'user', content: [{ type: 'text', text: 'summary' }] });
    for (let index = 2; index < compacted.length; index += 1) expect(compacted[index]).toBe(later[index + 1]);
  });

  it('converts what core wrote or changed like messagesToPrompt, the same object on every call', () => {
    const converter = messageConverter();
    const prompt: ProviderPrompt = [
      system,
      text('user', 'read it'),
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'code' } }],
      },
      text('assistant', 'done'),
    ];
    const messages = converter.toCore(prompt);
    const tool = messages[3]!;
    const pruned = { ...tool, parts: tool.parts.map((part) => ({ ...part, output: PRUNED_OUTPUT_MARKER })) };
    const context = [messages[0]!, messages[1]!, messages[2]!, pruned, messages[4]!];
    const back = converter.fromCore(context);
    expect(back).toStrictEqual(messagesToPrompt(context));
    expect(back[3]).not.toStrictEqual(prompt[3]);
    expect(converter.fromCore(context)[3]).toBe(back[3]);
    for (const index of [0, 1, 2, 4]) expect(back[index]).toBe(prompt[index]);
  });

  // 300 generated prompt sequences: 0.7–1.8 s measured on 2 cores at a load of 9 (5 s default).
  it('property: any sequence of prompts gets the ids of promptToMessages and round-trips losslessly', () => {
    // Unchanged messages come back as the objects first seen: equal content, maybe other prototypes.
    const sequence = fc.array(
      fc.oneof(
        promptArbitrary.map((prompt) => () => prompt),
        fc.constant((previous: ProviderPrompt) => resent(previous)),
        promptArbitrary.map((extra) => (previous: ProviderPrompt) => resent([...previous, ...extra])),
        fc.nat().map((cut) => (previous: ProviderPrompt) => resent(previous.slice(0, cut % (previous.length + 1)))),
      ),
      { minLength: 1, maxLength: 6 },
    );
    // With the array toCore returned, the messages core kept in place are this call's objects, whatever it cut.
    const cuts = fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(sequence, cuts, (steps, cutAt) => {
        const converter = messageConverter(2);
        let prompt: ProviderPrompt = [];
        for (const [index, step] of steps.entries()) {
          prompt = step(prompt);
          const messages = converter.toCore(prompt);
          expect(view(messages)).toEqual(view(promptToMessages(prompt)));
          const back = converter.fromCore(messages);
          expect(back).toEqual(prompt);
          if (index === 0) for (const [position, message] of back.entries()) expect(message).toBe(prompt[position]);
          expect(converter.fromCore(messages, messages, prompt)).toBe(prompt);
          // A compacted context: the first `front` messages, a summary core wrote, the messages from `from` on.
          const [frontAt, fromAt] = cutAt[index]!;
          const from = fromAt % (messages.length + 1);
          const front = frontAt % (from + 1);
          const summary: Message = { id: `summary-${index}`, role: 'user', parts: [{ type: 'text', text: 'earlier' }] };
          const context = [...messages.slice(0, front), summary, ...messages.slice(from)];
          const compacted = converter.fromCore(context, messages, prompt);
          expect(compacted).toEqual(messagesToPrompt(context));
          expect(compacted).toHaveLength(context.length);
          for (let position = 0; position < front; position += 1) expect(compacted[position]).toBe(prompt[position]);
          for (let position = from; position < prompt.length; position += 1)
            expect(compacted[front + 1 + position - from]).toBe(prompt[position]);
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
