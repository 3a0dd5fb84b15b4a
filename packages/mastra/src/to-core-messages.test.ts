import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import { describe, expect, it } from 'vitest';
import { at, weatherRun } from './__fixtures__/weather-run.js';
import { mastraOrigin } from './mastra-origin.js';
import { DENIED_OUTPUT } from './part-to-core.js';
import { toCoreMessages } from './to-core-messages.js';

describe('toCoreMessages', () => {
  it('splits an assistant message into steps, with a tool message for each step that ran tools', () => {
    const core = toCoreMessages(weatherRun);
    expect(core.map(({ id, role, parts }) => ({ id, role, parts }))).toEqual([
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'getWeather', input: { city: 'Paris' } }],
      },
      {
        id: 'a1:results',
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            toolCallId: 'call-1',
            toolName: 'getWeather',
            output: { city: 'Paris', forecast: 'sunny' },
          },
        ],
      },
      { id: 'a1#1', role: 'assistant', parts: [{ type: 'text', text: 'It is sunny in Paris.' }] },
    ]);
  });

  it('carries parts with no core counterpart in metadata, with their index', () => {
    const last = toCoreMessages(weatherRun).at(-1)!;
    const origin = mastraOrigin(last)!;
    expect(origin.step).toBe(1);
    expect(origin.sources).toEqual([2]);
    expect(origin.parts.map(({ index, part }) => [index, part.type])).toEqual([
      [1, 'step-start'],
      [2, 'text'],
      [3, 'data-progress'],
    ]);
    expect(origin.envelope.id).toBe('a1');
    expect(origin.partCount).toBe(4);
  });

  it('reads errors, denials and a stored toModelOutput as the output the model sees', () => {
    const message: MastraDBMessage = {
      id: 'a2',
      role: 'assistant',
      createdAt: at(5),
      content: {
        format: 2,
        parts: [
          {
            type: 'tool-invocation',
            toolInvocation: { state: 'output-error', toolCallId: 'e', toolName: 'read', args: {}, errorText: 'ENOENT' },
          },
          {
            type: 'tool-invocation',
            toolInvocation: { state: 'output-denied', toolCallId: 'd', toolName: 'rm', args: {} },
          },
          {
            type: 'tool-invocation',
            toolInvocation: {
              state: 'result',
              toolCallId: 'm',
              toolName: 'big',
              args: {},
              result: { rows: [1, 2, 3] },
            },
            providerMetadata: { mastra: { modelOutput: { type: 'text', value: '3 rows' } } },
          },
          {
            type: 'tool-invocation',
            toolInvocation: { state: 'call', toolCallId: 'p', toolName: 'ask', args: { q: 1 } },
          },
        ],
      },
    };
    const [call, results] = toCoreMessages([message]);
    expect(call!.parts.map((part) => part.type)).toEqual(['tool-call', 'tool-call', 'tool-call', 'tool-call']);
    expect(results!.parts).toEqual([
      { type: 'tool-result', toolCallId: 'e', toolName: 'read', output: 'ENOENT', isError: true },
      { type: 'tool-result', toolCallId: 'd', toolName: 'rm', output: DENIED_OUTPUT, isError: true },
      { type: 'tool-result', toolCallId: 'm', toolName: 'big', output: { type: 'text', value: '3 rows' } },
    ]);
  });

  it('maps reasoning, files and signals; a tool invocation on a user message is only carried', () => {
    const messages: MastraDBMessage[] = [
      {
        id: 's1',
        role: 'signal',
        createdAt: at(0),
        content: { format: 2, parts: [{ type: 'text', text: 'ping' }] },
      },
      {
        id: 'u1',
        role: 'user',
        createdAt: at(1),
        content: {
          format: 2,
          parts: [
            { type: 'file', mimeType: 'image/png', data: 'data:image/png;base64,AAAA' },
            { type: 'tool-invocation', toolInvocation: { state: 'call', toolCallId: 'x', toolName: 't', args: {} } },
          ],
        },
      },
      {
        id: 'a1',
        role: 'assistant',
        createdAt: at(2),
        content: {
          format: 2,
          parts: [{ type: 'reasoning', reasoning: '', details: [{ type: 'text', text: 'think' }] }],
        },
      },
    ];
    expect(toCoreMessages(messages).map(({ role, parts }) => ({ role, parts }))).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'ping' }] },
      { role: 'user', parts: [{ type: 'file', mediaType: 'image/png', data: 'data:image/png;base64,AAAA' }] },
      { role: 'assistant', parts: [{ type: 'reasoning', text: 'think' }] },
    ]);
  });

  it('makes content ids that survive new Mastra ids and change with the content', () => {
    const renamed = weatherRun.map((message, index) => ({ ...message, id: `fresh-${index}` }));
    const original = toCoreMessages(weatherRun, { ids: 'content' }).map(({ id }) => id);
    expect(toCoreMessages(renamed, { ids: 'content' }).map(({ id }) => id)).toEqual(original);
    expect(new Set(original).size).toBe(original.length);
    const edited = structuredClone(weatherRun);
    edited[0]!.content.parts = [{ type: 'text', text: 'Weather in Rome?' }];
    expect(toCoreMessages(edited, { ids: 'content' })[0]!.id).not.toBe(original[0]);
  });

  it('keeps the ids of earlier steps when the run adds a step', () => {
    const growing = structuredClone(weatherRun[1]!);
    growing.content.parts = growing.content.parts.slice(0, 1);
    const before = toCoreMessages([growing]).map(({ id }) => id);
    growing.content.parts.push({ type: 'step-start' });
    const withBoundary = toCoreMessages([growing]).map(({ id }) => id);
    growing.content.parts.push({ type: 'text', text: 'done' });
    const after = toCoreMessages([growing]).map(({ id }) => id);
    expect(before).toEqual(['a1', 'a1:results']);
    expect(withBoundary).toEqual(['a1', 'a1:results', 'a1#1']);
    expect(after).toEqual(withBoundary);
  });

  it('sets the metadata keys core reads (pinned, synthetic) on every core message of a Mastra message', () => {
    const message: MastraDBMessage = {
      id: 'a',
      role: 'assistant',
      createdAt: at(0),
      content: {
        format: 2,
        metadata: { pinned: true, synthetic: true, other: 1 },
        parts: [
          {
            type: 'tool-invocation',
            toolInvocation: { state: 'result', toolCallId: 'c', toolName: 'read', args: {}, result: 'r' },
          },
          { type: 'step-start' },
          { type: 'text', text: 'done' },
        ],
      },
    };
    const core = toCoreMessages([message]);
    expect(core.map(({ role, metadata }) => [role, metadata?.pinned, metadata?.synthetic, metadata?.other])).toEqual([
      ['assistant', true, true, undefined],
      ['tool', true, true, undefined],
      ['assistant', true, true, undefined],
    ]);
    expect(toCoreMessages(weatherRun).every(({ metadata }) => Object.keys(metadata ?? {}).join() === 'mastra')).toBe(
      true,
    );
  });
});
