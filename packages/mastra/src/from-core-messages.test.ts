import type { Message } from '@compaction/core';
import { MessageList } from '@mastra/core/agent';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import { describe, expect, it } from 'vitest';
import { at, weatherRun } from './__fixtures__/weather-run.js';
import { fromCoreMessages } from './from-core-messages.js';
import { toCoreMessages } from './to-core-messages.js';

const MARKER = '[Output cleared]';

function pruneOutputs(messages: Message[]): Message[] {
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: MARKER } : part)),
  }));
}

describe('fromCoreMessages', () => {
  it('rebuilds the Mastra messages exactly', () => {
    expect(fromCoreMessages(toCoreMessages(weatherRun))).toStrictEqual(weatherRun);
    expect(fromCoreMessages(toCoreMessages(weatherRun, { ids: 'content' }))).toStrictEqual(weatherRun);
  });

  it('rebuilds a message cut after its first step with just the kept parts and no legacy mirrors', () => {
    const withMirror = structuredClone(weatherRun);
    withMirror[1]!.content.content = 'It is sunny in Paris.';
    const kept = toCoreMessages(withMirror).slice(3);
    const [rebuilt] = fromCoreMessages(kept);
    expect(rebuilt!.id).toBe('a1');
    expect(rebuilt!.content.parts).toEqual(withMirror[1]!.content.parts.slice(1));
    expect(rebuilt!.content.content).toBeUndefined();
    expect(rebuilt!.content.metadata).toEqual({ modelId: 'mock-v4', provider: 'mock' });
    expect(rebuilt!.createdAt).toEqual(withMirror[1]!.createdAt);
  });

  it('writes a pruned output where the model reads it: the result, or the stored toModelOutput', () => {
    const message: MastraDBMessage = {
      id: 'a',
      role: 'assistant',
      createdAt: at(0),
      content: {
        format: 2,
        parts: [
          {
            type: 'tool-invocation',
            toolInvocation: { state: 'result', toolCallId: 'r', toolName: 'grep', args: {}, result: 'many lines' },
          },
          {
            type: 'tool-invocation',
            toolInvocation: { state: 'result', toolCallId: 'm', toolName: 'big', args: {}, result: { rows: [1] } },
            providerMetadata: { mastra: { modelOutput: { type: 'json', value: { rows: 1 } } } },
          },
          {
            type: 'tool-invocation',
            toolInvocation: {
              state: 'output-error',
              toolCallId: 'e',
              toolName: 'read',
              args: {},
              errorText: 'long trace',
            },
          },
        ],
      },
    };
    const [rebuilt] = fromCoreMessages(pruneOutputs(toCoreMessages([message])));
    const [plain, mapped, failed] = rebuilt!.content.parts;
    expect(plain).toMatchObject({ toolInvocation: { result: MARKER } });
    expect(mapped).toMatchObject({
      toolInvocation: { result: { rows: [1] } },
      providerMetadata: { mastra: { modelOutput: { type: 'text', value: MARKER } } },
    });
    expect(failed).toMatchObject({ toolInvocation: { errorText: MARKER } });
    expect(message.content.parts[0]).toMatchObject({ toolInvocation: { result: 'many lines' } });
  });

  it('turns a summary and its acknowledgement into Mastra messages dated just before what follows', () => {
    const summary: Message = {
      id: 'compaction-summary-v1',
      role: 'user',
      parts: [{ type: 'text', text: 'summary' }],
      metadata: { compaction: { type: 'summary', version: 1 } },
    };
    const ack: Message = { id: 'compaction-ack-v1', role: 'assistant', parts: [{ type: 'text', text: 'ok' }] };
    const rebuilt = fromCoreMessages([summary, ack, ...toCoreMessages(weatherRun).slice(3)]);
    expect(rebuilt.map(({ id, role }) => [id, role])).toEqual([
      ['compaction-summary-v1', 'user'],
      ['compaction-ack-v1', 'assistant'],
      ['a1', 'assistant'],
    ]);
    expect(rebuilt[0]!.content).toEqual({
      format: 2,
      parts: [{ type: 'text', text: 'summary' }],
      metadata: { compaction: { type: 'summary', version: 1 } },
    });
    const times = rebuilt.map(({ createdAt }) => createdAt.getTime());
    expect(times).toEqual([at(1).getTime() - 2, at(1).getTime() - 1, at(1).getTime()]);
  });

  it("drops core's synthetic results: Mastra pairs unanswered calls itself", () => {
    const pending: MastraDBMessage = {
      id: 'a',
      role: 'assistant',
      createdAt: at(0),
      content: {
        format: 2,
        parts: [
          { type: 'tool-invocation', toolInvocation: { state: 'call', toolCallId: 'c', toolName: 'ask', args: {} } },
        ],
      },
    };
    const synthetic: Message = {
      id: 'a:missing-results',
      role: 'tool',
      parts: [{ type: 'tool-result', toolCallId: 'c', toolName: 'ask', output: 'none', isError: true }],
      metadata: { compaction: { type: 'synthetic-result' } },
    };
    expect(fromCoreMessages([...toCoreMessages([pending]), synthetic])).toStrictEqual([pending]);
  });

  it('joins the assistant steps core made into one message split by step-start, which a MessageList keeps whole', () => {
    const conversation: Message[] = [
      { id: 'u', role: 'user', parts: [{ type: 'text', text: 'Read a and b.' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { f: 'a' } }],
      },
      { id: 't1', role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: 'A' }] },
      {
        id: 'a2',
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Now b.' },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'read', input: { f: 'b' } },
        ],
      },
      { id: 't2', role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'read', output: 'B' }] },
      { id: 'a3', role: 'assistant', parts: [{ type: 'text', text: 'Both read.' }] },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }], metadata: { synthetic: true } },
    ];
    const mastra = fromCoreMessages(conversation);
    expect(mastra.map(({ id, content }) => [id, content.parts.map((part) => part.type)])).toEqual([
      ['u', ['text']],
      ['a1', ['tool-invocation', 'step-start', 'text', 'tool-invocation', 'step-start', 'text']],
      ['u2', ['text']],
    ]);
    // Sent as input, separate assistant messages would be merged into one step and lose their order.
    const list = new MessageList();
    list.add(mastra, 'input');
    const back = toCoreMessages(list.get.all.db(), { ids: 'content' });
    expect(back.map(({ role, parts }) => ({ role, parts }))).toEqual(
      conversation.map(({ role, parts }) => ({ role, parts })),
    );
    expect(back.at(-1)!.metadata?.synthetic).toBe(true);
  });
});
