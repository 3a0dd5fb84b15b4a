import type { Message } from '@compaction/core';
import type { LanguageModel as MastraLanguageModel } from '@mastra/core/llm';
import type { ProcessLLMRequestArgs } from '@mastra/core/processors';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { buildPrompt } from './build-prompt.js';
import { contextPrompt } from './context-prompt.js';
import { fromCoreMessages } from './from-core-messages.js';
import { toCoreMessages } from './to-core-messages.js';

type Prompt = ProcessLLMRequestArgs['prompt'];

const model = new MockLanguageModelV4({ provider: 'openai', modelId: 'gpt-5' }) as unknown as MastraLanguageModel;
const system: Prompt = [{ role: 'system', content: 'You are terse.' }];

const whole = (context: readonly Message[]) =>
  buildPrompt(fromCoreMessages(context), { prompt: system, model, live: undefined });

describe('contextPrompt', () => {
  it('gives the prompt of a whole rebuild at every step of a growing context, any conversation', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, fc.array(fc.nat(), { maxLength: 4 }), async (messages, cuts) => {
        // Mastra's own conversion refuses some generated signal messages, whole or not: leave them out.
        const core = toCoreMessages(
          messages.filter((message) => (message.role as string) !== 'signal'),
          { ids: 'message' },
        );
        const prompts = contextPrompt();
        // Steps that add one or more messages, as a run does; sometimes a compaction starts a new context.
        let end = 0;
        let start = 0;
        for (const cut of [...cuts, core.length]) {
          end = Math.min(core.length, end + 1 + (cut % 3));
          if (cut % 5 === 4) start = Math.min(end, start + 1); // the head changed: nothing is reused
          const context = core.slice(start, end);
          expect(await prompts.build(context, { prompt: system, model, live: undefined })).toEqual(
            await whole(context),
          );
          if (end === core.length) break;
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('keeps the converted head once a second step shows it, and converts only what follows', async () => {
    const user = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `question ${id}` }] });
    const reply = (id: string): Message => ({ id, role: 'assistant', parts: [{ type: 'text', text: `answer ${id}` }] });
    const context = [user('u1'), reply('a1'), user('u2'), reply('a2'), user('u3')];
    const prompts = contextPrompt();
    const options = { prompt: system, model, live: undefined };
    await prompts.build(context, options);
    const second = await prompts.build([...context, reply('a3')], options);
    const grown = [...context, reply('a3'), user('u4'), reply('a4')];
    const third = await prompts.build(grown, options);
    expect(third).toEqual(await whole(grown));
    // The head up to u3 is the very same prompt messages as the step before.
    for (let index = 1; index < 5; index += 1) expect(third[index]).toBe(second[index]);
  });
});
