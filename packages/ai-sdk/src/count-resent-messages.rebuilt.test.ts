// The AI SDK rebuilds some values of a re-sent prompt on every call, not only its message and
// part objects: a `content` tool output (a new wrapper around the same items, file items
// rebuilt), a file part's data wrapper. `countResentMessages` compares those in content, in
// place; these tests check it still counts exactly the messages whose content ids are
// unchanged, on prompts rebuilt as the AI SDK does and on the AI SDK's own conversion.
import { contentFingerprint } from '@compaction/core/internal';
import type { ModelMessage } from 'ai';
import { convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatSetup } from './__fixtures__/model-fixtures.js';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { deepCopy } from './__fixtures__/prompt-copies.js';
import type { PromptMessage, ProviderPrompt } from './ai-sdk-types.js';
import { promptToMessages } from './convert-prompt.js';
import { countResentMessages, sentMessages } from './count-resent-messages.js';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !(value instanceof URL) && !(value instanceof Uint8Array);

/** A file's data as `convertToLanguageModelV4FilePart` hands it on: a new wrapper around the same value. */
const rewrapped = (data: unknown) => (isObject(data) ? { ...data } : data);

/**
 * `prompt` as the AI SDK rebuilds it from the same messages on the next call: new message
 * and part objects; a `content` tool output made again (`mapToolResultOutput`: a new
 * `{ type, value }` around the same text items, file items rebuilt); a file part's data in a
 * new wrapper. Every other value the very same object.
 */
function rebuilt(prompt: readonly PromptMessage[]): ProviderPrompt {
  return prompt.map((message) =>
    isObject(message) && Array.isArray(message.content)
      ? ({ ...message, content: (message.content as unknown[]).map(rebuiltPart) } as unknown as PromptMessage)
      : isObject(message)
        ? { ...message }
        : message,
  );
}

function rebuiltPart(part: unknown): unknown {
  if (!isObject(part)) return part;
  const output = part.output;
  if (part.type === 'tool-result' && isObject(output) && output.type === 'content' && Array.isArray(output.value)) {
    const value = (output.value as unknown[]).map((item) =>
      isObject(item) && item.type === 'file' ? { ...item, data: rewrapped(item.data) } : item,
    );
    return { ...part, output: { type: 'content', value } };
  }
  if (part.type === 'file' || part.type === 'reasoning-file') return { ...part, data: rewrapped(part.data) };
  return { ...part };
}

/** Every path into a value (objects and arrays walked; bytes and URLs are leaves). */
function paths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = path.length > 0 ? [path] : [];
  if (!isObject(value)) return here;
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [...here, ...entries.flatMap(([key, item]) => paths(item, [...path, key]))];
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

/** How many leading messages of `incoming` have the content ids of `known`'s. */
function unchangedIds(incoming: ProviderPrompt, known: ProviderPrompt): number {
  const first = incoming.findIndex(
    (message, index) => contentFingerprint(message) !== contentFingerprint(known[index]),
  );
  return first < 0 ? incoming.length : first;
}

const withContentOutputs = fc
  .tuple(promptArbitrary, fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 3 }))
  .map(
    ([prompt, texts]) =>
      [
        ...prompt,
        { role: 'user', content: [{ type: 'text', text: 'read it' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'k1', toolName: 'read', input: { path: 'a' } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'k1',
              toolName: 'read',
              output: {
                type: 'content',
                value: [
                  ...texts.map((text) => ({ type: 'text', text })),
                  { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } },
                ],
              },
            },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
      ] as ProviderPrompt,
  );

const replacement = fc.oneof(
  fc.string({ maxLength: 6 }).map((text) => `edited ${text}`),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }).map((value) => ({ edited: value })),
);

describe('countResentMessages on a prompt the AI SDK rebuilt (content tool outputs, file data)', () => {
  it('counts every message of a rebuilt prompt, again after the rebuilt values took the kept ones’ places', () => {
    fc.assert(
      fc.property(withContentOutputs, (known) => {
        const sent = sentMessages(known);
        for (let call = 0; call < 3; call += 1) {
          const incoming = rebuilt(known);
          expect(countResentMessages(incoming, 0, incoming.length, sent)).toBe(incoming.length);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('property: an edit anywhere in an old message of a rebuilt prompt — in a content output, its items, file data — is seen', () => {
    const scenario = fc
      .tuple(withContentOutputs, fc.nat(), fc.nat(), replacement, fc.boolean(), fc.boolean())
      .map(([known, at, pick, value, settled, outputsOnly]) => {
        // Half the runs edit a message that holds a content output, or a file part.
        const holders = known
          .map((message, index) => ({ message, index }))
          .filter(({ message }) => /"(content|file|reasoning-file)"/.test(JSON.stringify(message)));
        const index = outputsOnly && holders.length > 0 ? holders[at % holders.length]!.index : at % known.length;
        const message = deepCopy(known[index]!);
        const all = paths(message);
        if (all.length > 0) setAt(message, all[pick % all.length]!, value);
        const incoming = rebuilt(known);
        incoming[index] = rebuilt([message])[0]!;
        return { known, incoming, settled };
      });
    fc.assert(
      fc.property(scenario, ({ known, incoming, settled }) => {
        const sent = sentMessages(known);
        // A call with the prompt rebuilt first: its values take the kept ones' places.
        if (settled) expect(countResentMessages(rebuilt(known), 0, known.length, sent)).toBe(known.length);
        expect(countResentMessages(incoming, 0, incoming.length, sent)).toBe(unchangedIds(incoming, known));
      }),
      { numRuns: 1_000 },
    );
  }, 120_000);

  it('a content output with another key, or not a plain object, is compared in full (never looser than its content id)', () => {
    const tool = (output: unknown): PromptMessage =>
      ({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'k', toolName: 'read', output }],
      }) as unknown as PromptMessage;
    const item = { type: 'text', text: 'x' };
    const known: ProviderPrompt = [
      tool({ type: 'content', value: [item] }),
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
    ];
    const variants: [unknown, boolean][] = [
      [{ type: 'content', value: [item] }, true],
      [{ type: 'content', value: [{ ...item }] }, true],
      [{ type: 'content', value: [item], extra: 1 }, false],
      [{ type: 'content', value: [item, item] }, false],
      [{ type: 'content', value: [] }, false],
      [{ type: 'text', value: [item] }, false],
      [Object.assign(Object.create(null), { type: 'content', value: [item] }), true],
    ];
    for (const [output, same] of variants) {
      const incoming = [tool(output), known[1]!];
      expect(countResentMessages(incoming, 0, 2, sentMessages(known)), JSON.stringify(output)).toBe(same ? 2 : 0);
      expect(unchangedIds(incoming, known) > 0).toBe(same);
    }
    // A class instance is another value to `sameContent` (only ever the very same object), though
    // its content id may read like the plain object's: different here too, never looser.
    class Output {
      type = 'content';
      value = [item];
    }
    const incoming = [tool(new Output()), known[1]!];
    expect(countResentMessages(incoming, 0, 2, sentMessages(known))).toBe(0);
  });
});

/** A conversation whose tool answers with `content` (text and an image), as MCP tools and `toModelOutput` do. */
function history(): ModelMessage[] {
  return [
    { role: 'user', content: 'Show me the chart.' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'chart', input: { id: 7 } }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'chart',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'Revenue by month.' },
              { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3, 4]) } },
            ],
          },
        },
      ],
    },
    { role: 'assistant', content: 'Here it is.' },
    { role: 'user', content: 'Thanks. And last year?' },
  ];
}

async function aiSdkPrompt(messages: ModelMessage[]): Promise<ProviderPrompt> {
  return (await convertToLanguageModelPrompt({
    prompt: await standardizePrompt({ messages }),
    supportedUrls: {},
    download: undefined,
  })) as ProviderPrompt;
}

describe('countResentMessages on the AI SDK’s own conversion', () => {
  it('counts a re-sent conversation with content tool outputs as unchanged, every call', async () => {
    const known = await aiSdkPrompt(history());
    const sent = sentMessages(known);
    for (let call = 0; call < 3; call += 1) {
      const incoming = await aiSdkPrompt(history());
      const output = (prompt: ProviderPrompt) => (prompt[2]!.content[0] as unknown as Fields).output;
      expect(output(incoming)).not.toBe(output(known));
      expect(countResentMessages(incoming, 0, incoming.length, sent)).toBe(incoming.length);
    }
  });

  it('sees an edited text item, an edited image, an item added, in an old content output', async () => {
    const outputOf = (messages: ModelMessage[]) =>
      (messages[2]!.content as unknown as { output: { value: Fields[] } }[])[0]!.output;
    const edits: ((messages: ModelMessage[]) => void)[] = [
      (messages) => {
        outputOf(messages).value[0]!.text = 'Revenue by week.';
      },
      (messages) => {
        (outputOf(messages).value[1]!.data as { data: Uint8Array }).data = new Uint8Array([1]);
      },
      (messages) => {
        outputOf(messages).value[1]!.mediaType = 'image/jpeg';
      },
      (messages) => {
        outputOf(messages).value.push({ type: 'text', text: 'More.' });
      },
    ];
    for (const edit of edits) {
      const known = await aiSdkPrompt(history());
      const sent = sentMessages(known);
      expect(countResentMessages(await aiSdkPrompt(history()), 0, known.length, sent)).toBe(known.length);
      const edited = history();
      edit(edited);
      const incoming = await aiSdkPrompt(edited);
      expect(countResentMessages(incoming, 0, incoming.length, sent)).toBe(2);
    }
  });

  it('through generateText: the session holds the edited content output and the model gets it', async () => {
    const { mock, middleware, call } = chatSetup();
    const view = (messages: readonly { id: string; role: string; parts: unknown }[]) =>
      JSON.stringify(messages.map(({ id, role, parts }) => ({ id, role, parts })));
    const edited = history();
    (edited[2]!.content as unknown as { output: { value: Fields[] } }[])[0]!.output.value[0]!.text = 'Revenue by week.';
    for (const messages of [history(), history(), edited, edited, history()]) {
      await call(messages);
      const expected = await aiSdkPrompt(messages);
      expect(mock.doGenerateCalls.at(-1)!.prompt).toStrictEqual(expected);
      expect(view(await middleware.session('chat', 'gpt-5').history())).toBe(view(promptToMessages(expected)));
    }
  });
});
