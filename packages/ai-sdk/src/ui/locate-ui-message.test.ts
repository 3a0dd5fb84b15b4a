import type { UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asLanguageModel } from '../as-language-model.js';
import { chatCoreMessages } from './chat-prompt.js';
import { locateUiMessage } from './locate-ui-message.js';

const model = asLanguageModel(new MockLanguageModelV4());

/** A UI message of a coding chat: user text, or an assistant turn of text and tool steps. */
const uiMessage = (index: number): fc.Arbitrary<UIMessage> =>
  fc.oneof(
    fc
      .string({ minLength: 1, maxLength: 20 })
      .map((text): UIMessage => ({ id: `m${index}`, role: 'user', parts: [{ type: 'text', text }] })),
    fc.array(fc.tuple(fc.string({ maxLength: 12 }), fc.nat({ max: 2 })), { minLength: 1, maxLength: 3 }).map(
      (steps): UIMessage => ({
        id: `m${index}`,
        role: 'assistant',
        parts: steps.flatMap(([text, calls], step) => [
          { type: 'step-start' as const },
          ...(text ? [{ type: 'text' as const, text, state: 'done' as const }] : []),
          ...Array.from({ length: calls }, (_, call) => ({
            type: 'dynamic-tool' as const,
            toolName: 'read',
            toolCallId: `c${index}-${step}-${call}`,
            state: 'output-available' as const,
            input: { path: `src/${text || 'x'}.ts` },
            output: `contents ${index}.${step}.${call}`,
          })),
        ]),
      }),
    ),
  );

const history = fc
  .integer({ min: 1, max: 8 })
  .chain((length) => fc.tuple(...Array.from({ length }, (_, index) => uiMessage(index))));

describe('locateUiMessage', () => {
  it('names the UI message each model message of the prompt comes from, for any history', async () => {
    await fc.assert(
      fc.asyncProperty(history, fc.boolean(), async (messages, withInstructions) => {
        const prompt = { messages, ...(withInstructions ? { instructions: 'Be brief.' } : {}) };
        // Which UI message each core message comes from: the prefix that first produces it.
        const owners = new Map<string, number>();
        for (let count = 1; count <= messages.length; count += 1) {
          const core = await chatCoreMessages({ ...prompt, messages: messages.slice(0, count) }, model);
          for (const message of core) if (!owners.has(message.id)) owners.set(message.id, count - 1);
        }
        const full = await chatCoreMessages(prompt, model);
        for (const message of full) {
          if (message.role === 'system') continue;
          expect(await locateUiMessage(prompt, message.id, model)).toBe(owners.get(message.id));
        }
        expect(await locateUiMessage(prompt, 'm_not-an-id', model)).toBe(-1);
      }),
      { numRuns: 40 },
    );
  });

  it('finds nothing in an empty conversation', async () => {
    expect(await locateUiMessage({ messages: [] }, 'm_x', model)).toBe(-1);
  });
});
