import { type Message, PRUNED_OUTPUT_MARKER, summaryMessage } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import type { ProviderPrompt } from './ai-sdk-types.js';
import { messagesToPrompt, promptToMessages } from './convert-prompt.js';

/** The prompt `ai` built in the research run (params.mjs), with every placement of providerOptions. */
const makePrompt = (): ProviderPrompt => [
  { role: 'system', content: 'S', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'hi', providerOptions: { acme: { partLevel: true } } },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } },
      { type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: new URL('https://example.com/a.pdf') } },
    ],
    providerOptions: { acme: { messageLevel: true } },
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'thinking' },
      { type: 'tool-call', toolCallId: 'c0', toolName: 'noop', input: { a: 1 } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c0', toolName: 'noop', output: { type: 'error-text', value: 'failed' } },
    ],
  },
];
const prompt = makePrompt();

/** What core does to a kept message: new message and part objects with equal content. */
function cloneParts(messages: readonly Message[]): Message[] {
  return messages.map((message) => ({ ...message, parts: message.parts.map((part) => ({ ...part })) }));
}

describe('promptToMessages', () => {
  it('gives core the content it counts and summarizes', () => {
    const messages = promptToMessages(prompt);
    expect(messages.map(({ id, role, parts }) => ({ id, role, parts }))).toEqual([
      { id: expect.stringMatching(/^sys_[0-9a-f]{16}$/), role: 'system', parts: [{ type: 'text', text: 'S' }] },
      {
        id: expect.stringMatching(/^m_[0-9a-f]{16}$/),
        role: 'user',
        parts: [
          { type: 'text', text: 'hi', providerOptions: { acme: { partLevel: true } } },
          { type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) },
          { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
        ],
      },
      {
        id: expect.stringMatching(/^m_[0-9a-f]{16}$/),
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'tool-call', toolCallId: 'c0', toolName: 'noop', input: { a: 1 } },
        ],
      },
      {
        id: expect.stringMatching(/^m_[0-9a-f]{16}$/),
        role: 'tool',
        parts: [{ type: 'tool-result', toolCallId: 'c0', toolName: 'noop', output: 'failed', isError: true }],
      },
    ]);
  });

  it('derives the same ids from the same content, on every request', () => {
    expect(promptToMessages(makePrompt()).map((m) => m.id)).toEqual(promptToMessages(prompt).map((m) => m.id));
  });

  it('keeps conversation ids when only the system prompt changes, and changes them from an edited message on', () => {
    const ids = promptToMessages(prompt).map((m) => m.id);
    const newSystem = promptToMessages([{ role: 'system', content: 'S, today is Monday' }, ...prompt.slice(1)]);
    expect(newSystem.map((m) => m.id).slice(1)).toEqual(ids.slice(1));
    expect(newSystem[0]!.id).not.toBe(ids[0]);

    const edited = promptToMessages([
      ...prompt.slice(0, 2),
      { role: 'assistant', content: [{ type: 'text', text: 'edited' }] },
      ...prompt.slice(3),
    ]).map((m) => m.id);
    expect(edited.slice(0, 2)).toEqual(ids.slice(0, 2));
    expect(edited[2]).not.toBe(ids[2]);
    expect(edited[3]).not.toBe(ids[3]);
  });
});

describe('messagesToPrompt', () => {
  it('round-trips an uncompacted prompt to the very same objects', () => {
    const back = messagesToPrompt(promptToMessages(prompt));
    expect(back).toStrictEqual(prompt);
    for (const [index, message] of back.entries()) expect(message).toBe(prompt[index]);
  });

  it('sends a pruned tool output as text and leaves everything else as it was', () => {
    const messages = cloneParts(promptToMessages(prompt));
    const tool = messages[3]!;
    messages[3] = { ...tool, parts: tool.parts.map((part) => ({ ...part, output: PRUNED_OUTPUT_MARKER })) };
    const back = messagesToPrompt(messages);
    expect(back.slice(0, 3)).toStrictEqual(prompt.slice(0, 3));
    expect(back[3]).toStrictEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c0',
          toolName: 'noop',
          output: { type: 'error-text', value: PRUNED_OUTPUT_MARKER },
        },
      ],
    });
  });

  it('sends the summary core writes as a user message', () => {
    const summary = summaryMessage({
      schema: 1,
      version: 2,
      summary: '## Goal\nFix the parser',
      firstKeptMessageId: 'm_x',
      summarizedRange: { fromIndex: 0, toIndex: 9, messageCount: 10 },
      prunedToolCallIds: [],
      fileOps: { read: [], modified: [] },
      tokensBefore: 1000,
      tokensAfter: 100,
      strategy: 'llm',
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    const [message] = messagesToPrompt([summary]);
    expect(message).toStrictEqual({
      role: 'user',
      content: [{ type: 'text', text: expect.stringContaining('Fix the parser') }],
    });
  });

  it('property: any prompt round-trips losslessly, also when core rebuilds the part objects', () => {
    fc.assert(
      fc.property(promptArbitrary, (input) => {
        const messages = promptToMessages(input);
        expect(messagesToPrompt(messages)).toStrictEqual(input);
        expect(messagesToPrompt(cloneParts(messages))).toStrictEqual(input);
      }),
      { numRuns: 300 },
    );
  });

  it('property: pruning one tool output changes that output only', () => {
    const withResult = promptArbitrary.filter((input) =>
      input.some((message) => message.role === 'tool' && message.content.some((part) => part.type === 'tool-result')),
    );
    fc.assert(
      fc.property(withResult, (input) => {
        const messages = cloneParts(promptToMessages(input));
        const index = messages.findIndex((m) => m.role === 'tool' && m.parts.some((p) => p.type === 'tool-result'));
        const target = messages[index]!;
        const partIndex = target.parts.findIndex((p) => p.type === 'tool-result');
        messages[index] = {
          ...target,
          parts: target.parts.map((part, i) => (i === partIndex ? { ...part, output: PRUNED_OUTPUT_MARKER } : part)),
        };
        const back = messagesToPrompt(messages);
        back.forEach((message, i) => {
          if (i !== index) expect(message).toBe(input[i]);
        });
        const original = input[index]!;
        const changed = back[index]!;
        expect(changed.providerOptions).toStrictEqual(original.providerOptions);
        const resultParts = (changed.content as { type: string; output?: unknown }[]).filter(
          (p) => p.type === 'tool-result',
        );
        expect(resultParts[0]!.output).toStrictEqual({
          type: expect.stringMatching(/^(text|error-text)$/),
          value: PRUNED_OUTPUT_MARKER,
        });
        expect(changed.content.length).toBe((original.content as unknown[]).length);
      }),
      { numRuns: 200 },
    );
  });
});
