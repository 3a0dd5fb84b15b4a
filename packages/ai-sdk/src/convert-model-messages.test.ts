import { PRUNED_OUTPUT_MARKER } from '@compaction/core';
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelMessagesArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { messagesToModelMessages, modelMessagesToMessages } from './convert-model-messages.js';

const messages: ModelMessage[] = [
  { role: 'user', content: 'Read the config' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'config.json' } },
    ],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'json', value: { a: 1 } } }],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'And this picture' },
      { type: 'image', image: new URL('https://example.com/cat.png') },
    ],
  },
];

describe('modelMessagesToMessages', () => {
  it('reads string content, images and JSON tool outputs', () => {
    const core = modelMessagesToMessages(messages);
    expect(core.map(({ role, parts }) => ({ role, parts }))).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Read the config' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Reading it.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'config.json' } },
        ],
      },
      { role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { a: 1 } }] },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'And this picture' },
          { type: 'file', mediaType: 'image', url: 'https://example.com/cat.png' },
        ],
      },
    ]);
  });

  it('gives a string-content message back as a string when core kept it', () => {
    const back = messagesToModelMessages(modelMessagesToMessages(messages));
    expect(back).toStrictEqual(messages);
    expect(back[0]).toBe(messages[0]);
  });

  it('sends a pruned JSON output as text and keeps the rest', () => {
    const core = modelMessagesToMessages(messages);
    const tool = core[2]!;
    core[2] = { ...tool, parts: tool.parts.map((part) => ({ ...part, output: PRUNED_OUTPUT_MARKER })) };
    const back = messagesToModelMessages(core);
    expect(back[2]).toStrictEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'read',
          output: { type: 'text', value: PRUNED_OUTPUT_MARKER },
        },
      ],
    });
    expect(back.filter((_, index) => index !== 2)).toStrictEqual(messages.filter((_, index) => index !== 2));
  });

  it('property: any ModelMessage list round-trips losslessly, also when core rebuilds the part objects', () => {
    fc.assert(
      fc.property(modelMessagesArbitrary, (input) => {
        const core = modelMessagesToMessages(input);
        expect(messagesToModelMessages(core)).toStrictEqual(input);
        const rebuilt = core.map((message) => ({ ...message, parts: message.parts.map((part) => ({ ...part })) }));
        expect(messagesToModelMessages(rebuilt)).toStrictEqual(input);
      }),
      { numRuns: 300 },
    );
  });
});
