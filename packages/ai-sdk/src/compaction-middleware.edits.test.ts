import { generateText, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChatSetup, chatSetup, textResult } from './__fixtures__/model-fixtures.js';
import type { ProviderPrompt } from './ai-sdk-types.js';
import { promptToMessages } from './convert-prompt.js';

type Edit = (messages: ModelMessage[]) => void;

/** A conversation with a tool call and a nested JSON result, provider options on a message and on a part. */
function history(): ModelMessage[] {
  return [
    { role: 'user', content: 'Look up the rows.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking.', providerOptions: { acme: { cache: { ttl: 60 } } } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'rows', input: { filter: { name: ['a', 'b'] } } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'rows',
          output: { type: 'json', value: { rows: [{ id: 1, tags: ['x', 'y'] }] } },
        },
      ],
      providerOptions: { acme: { note: { level: 1 } } },
    },
    { role: 'assistant', content: 'One row.' },
    { role: 'user', content: 'And then?' },
  ];
}

/** Edits deep inside old messages, each in place on a fresh copy (as an application would rebuild them). */
const edits: Record<string, Edit> = {
  'a value deep in a tool result': (messages) => {
    const output = (messages[2]!.content as unknown as { output: { value: { rows: { tags: string[] }[] } } }[])[0]!
      .output;
    output.value.rows[0]!.tags[1] = 'z';
  },
  'a value deep in a tool input': (messages) => {
    const input = (messages[1]!.content as { input?: { filter: { name: string[] } } }[])[1]!.input!;
    input.filter.name[0] = 'c';
  },
  "a part's provider option": (messages) => {
    const part = (messages[1]!.content as { providerOptions?: { acme: { cache: { ttl: number } } } }[])[0]!;
    part.providerOptions!.acme.cache.ttl = 61;
  },
  "a message's provider option": (messages) => {
    (messages[2]!.providerOptions as { acme: { note: { level: number } } }).acme.note.level = 2;
  },
  'a text': (messages) => {
    messages[3] = { role: 'assistant', content: 'Two rows.' };
  },
};

/** The prompt the AI SDK itself builds from `messages` (an unwrapped mock model's). */
async function referencePrompt(messages: ModelMessage[]): Promise<ProviderPrompt> {
  const reference = new MockLanguageModelV4({ doGenerate: async () => textResult('ok') });
  await generateText({ model: reference, messages });
  return reference.doGenerateCalls[0]!.prompt;
}

/** Ids, roles and parts: what the session must hold for a prompt (its originals aside). */
const view = (messages: readonly { id: string; role: string; parts: unknown }[]) =>
  JSON.stringify(messages.map(({ id, role, parts }) => ({ id, role, parts })));

/**
 * Checks that the model was sent exactly `messages`' prompt and that the session holds
 * exactly its messages, with the ids a first conversion would give them (the middleware's
 * sessions keep the history in memory only: the application re-sends it every call).
 */
async function expectHolds({ mock, middleware }: ChatSetup, messages: ModelMessage[]) {
  const expected = await referencePrompt(messages);
  expect(mock.doGenerateCalls.at(-1)!.prompt).toStrictEqual(expected);
  const wanted = view(promptToMessages(expected));
  expect(view(await middleware.session('chat', 'gpt-5').history())).toBe(wanted);
}

describe('compactionMiddleware on an edited history', () => {
  for (const [name, edit] of Object.entries(edits)) {
    it(`sees ${name} in an old message: the session holds it and the model gets it`, async () => {
      const context = chatSetup();
      await context.call(history());
      await expectHolds(context, history());
      const edited = structuredClone(history());
      edit(edited);
      expect(view(promptToMessages(await referencePrompt(edited)))).not.toBe(
        view(promptToMessages(await referencePrompt(history()))),
      );
      await context.call(edited);
      await expectHolds(context, edited);
    });
  }

  it('property: any sequence of re-sent, copied and edited histories leaves the session holding the last one', async () => {
    const step = fc.oneof(
      fc.constant('resend' as const),
      fc.constant('copy' as const),
      fc.constantFrom(...Object.keys(edits)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const context = chatSetup();
        let messages = history();
        await context.call(messages);
        for (const kind of steps) {
          if (kind === 'copy') messages = structuredClone(messages);
          else if (kind !== 'resend') {
            messages = structuredClone(messages);
            edits[kind]!(messages);
          }
          await context.call(messages);
          await expectHolds(context, messages);
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('property: the same with the session left alone between calls (held counted, not loaded, after a usage report)', async () => {
    const step = fc.oneof(
      fc.constant('resend' as const),
      fc.constant('copy' as const),
      fc.constant('grow' as const),
      fc.constantFrom(...Object.keys(edits)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const context = chatSetup();
        let messages = history();
        await context.call(messages);
        for (const [index, kind] of steps.entries()) {
          if (kind === 'copy') messages = structuredClone(messages);
          else if (kind === 'grow')
            messages = [
              ...messages,
              { role: 'assistant', content: `reply ${index}` },
              { role: 'user', content: 'go on' },
            ];
          else if (kind !== 'resend') {
            messages = structuredClone(messages);
            edits[kind]!(messages);
          }
          await context.call(messages);
          // What the model got, without asking the session anything in between.
          expect(context.mock.doGenerateCalls.at(-1)!.prompt).toStrictEqual(await referencePrompt(messages));
        }
        await expectHolds(context, messages);
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
