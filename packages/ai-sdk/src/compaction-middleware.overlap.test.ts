import { memoryStore, processCountedConversationMemory } from '@compaction/core';
import { generateText, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asStream, conversation, promptTokens, textResult } from './__fixtures__/model-fixtures.js';
import type { ProviderPrompt } from './ai-sdk-types.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { promptToMessages } from './convert-prompt.js';

const view = (messages: readonly { id: string; role: string; parts: unknown }[]) =>
  JSON.stringify(messages.map(({ id, role, parts }) => ({ id, role, parts })));

/** The prompt the AI SDK itself builds from `messages` (an unwrapped mock model's). */
async function referencePrompt(messages: ModelMessage[]): Promise<ProviderPrompt> {
  const reference = new MockLanguageModelV4({ doGenerate: async () => textResult('ok') });
  await generateText({ model: reference, messages });
  return reference.doGenerateCalls[0]!.prompt;
}

/** The next prompt of the conversation: extended by a turn or two, edited deep inside, copied, or cut back by whole turns. */
type Step = { kind: 'extend' | 'edit' | 'copy' | 'cut'; at: number };
/** A call: generated or streamed, awaited or left running (a stream read only at the end: its usage report comes late). */
type Call = { step: Step; awaited: boolean; streamed: boolean; delay: number };

const call: fc.Arbitrary<Call> = fc.record({
  step: fc.record({ kind: fc.constantFrom<Step['kind']>('extend', 'edit', 'copy', 'cut'), at: fc.nat(60) }),
  awaited: fc.boolean(),
  streamed: fc.boolean(),
  delay: fc.nat(3),
});

function next(messages: ModelMessage[], { kind, at }: Step, turn: number): ModelMessage[] {
  if (kind === 'extend') return [...messages, ...conversation(1 + (at % 2), turn)];
  if (kind === 'copy') return structuredClone(messages);
  if (kind === 'cut') return messages.slice(0, Math.max(8, messages.length - 4 * (at % 3)));
  const edited = structuredClone(messages);
  const message = edited[at % edited.length]!;
  const text = `edited ${at}`;
  if (typeof message.content === 'string') message.content = text;
  else if (message.role === 'tool') (message.content[0] as { output: { value: string } }).output.value = text;
  else (message.content[1] as { input: unknown }).input = { path: text }; // the tool call of a turn
  return edited;
}

describe('compactionMiddleware with overlapping calls of a conversation held counted', () => {
  it('property: each model call gets its own prompt, and the session ends holding the history of the call it prepared last', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 2, maxLength: 8 }), async (calls) => {
        const delays: number[] = [];
        /** Every prompt the model got, in the order it got them (generated and streamed). */
        const got: ProviderPrompt[] = [];
        const mock = new MockLanguageModelV4({
          provider: 'openai',
          modelId: 'gpt-5',
          doGenerate: async ({ prompt }) => {
            got.push(prompt);
            for (let tick = delays.shift() ?? 0; tick > 0; tick -= 1) await new Promise((done) => setTimeout(done, 1));
            return textResult('Noted.', promptTokens(prompt));
          },
          doStream: async ({ prompt }) => {
            got.push(prompt);
            return asStream(textResult('Noted.', promptTokens(prompt)));
          },
        });
        const middleware = compactionMiddleware({
          store: memoryStore(),
          summarizer: 'structured',
          settings: { contextWindow: 1_000_000 },
        });
        const model = wrapLanguageModel({ model: mock, middleware });
        const options = { model, providerOptions: { compaction: { sessionId: 'overlap' } } };
        let messages = conversation(4);
        await generateText({ ...options, messages });
        const counted = processCountedConversationMemory().size;
        await generateText({ ...options, messages }); // a usage record: held counted from here on
        expect(processCountedConversationMemory().size).toBe(counted + 1);
        const prompts: ModelMessage[][] = [];
        const running: Promise<unknown>[] = [];
        const unread: ReadableStream<unknown>[] = [];
        for (const [index, { step, awaited, streamed, delay }] of calls.entries()) {
          messages = next(messages, step, 10 + 2 * index);
          prompts.push(messages);
          delays.push(delay);
          if (streamed) {
            const result = streamText({ ...options, messages });
            if (awaited) await result.consumeStream();
            else unread.push(result.fullStream);
          } else {
            const result = generateText({ ...options, messages });
            if (awaited) await result;
            else running.push(result);
          }
        }
        await Promise.all(running);
        for (const stream of unread.reverse()) for await (const _ of stream as AsyncIterable<unknown>);
        const sent = got.slice(2).map((prompt) => JSON.stringify(prompt));
        const expected = await Promise.all(
          prompts.map(async (prompt) => JSON.stringify(await referencePrompt(prompt))),
        );
        expect(sent.sort()).toEqual(expected.sort());
        // The session holds the history of the call it prepared last: the last prompt the model got.
        expect(view(await middleware.session('overlap', 'gpt-5').history())).toBe(view(promptToMessages(got.at(-1)!)));
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
