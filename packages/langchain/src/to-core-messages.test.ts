import { InvalidMessageError } from '@compaction/core';
import { AIMessage, FunctionMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { CONVERTED_MESSAGES_KEPT, extendToCore, toCoreMessages } from './to-core-messages.js';

function withoutOriginal<T extends { metadata?: Record<string, unknown> }>(message: T) {
  const { langchain: _original, ...metadata } = message.metadata ?? {};
  return { ...message, metadata };
}

describe('toCoreMessages', () => {
  it('maps each message type with its parts, tool calls, usage and errors', () => {
    const messages = [
      new SystemMessage({ id: 's', content: 'Be brief.' }),
      new HumanMessage({
        id: 'h',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
        ],
      }),
      new AIMessage({
        id: 'a',
        content: [
          { type: 'thinking', thinking: 'Look first.', signature: 'sig' },
          { type: 'text', text: 'Let me check.' },
        ],
        tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' }],
        usage_metadata: { input_tokens: 120, output_tokens: 15, total_tokens: 135 },
      }),
      new ToolMessage({ id: 't', tool_call_id: 'call_1', content: 'service down', status: 'error' }),
    ];
    expect(toCoreMessages(messages).map(withoutOriginal)).toEqual([
      { id: 's', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], metadata: {} },
      {
        id: 'h',
        role: 'user',
        parts: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'file', mediaType: 'image/jpeg', url: 'data:image/jpeg;base64,AAAA' },
        ],
        metadata: {},
      },
      {
        id: 'a',
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Look first.' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Paris' } },
        ],
        usage: { inputTokens: 120, outputTokens: 15 },
        metadata: {},
      },
      {
        id: 't',
        role: 'tool',
        parts: [
          { type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: 'service down', isError: true },
        ],
        metadata: {},
      },
    ]);
  });

  it('keeps the LangChain message and reads back the compaction marker of messages core wrote', () => {
    const summary = new HumanMessage({
      id: 'compaction-summary-v1',
      content: '[Conversation summary] …',
      additional_kwargs: { lc_source: 'compaction', compaction: { type: 'summary', version: 1 } },
    });
    const [core] = toCoreMessages([summary]);
    expect(core!.metadata).toEqual({ langchain: { original: summary }, compaction: { type: 'summary', version: 1 } });
  });

  it('derives ids for messages without one', () => {
    const [first, second] = toCoreMessages([new HumanMessage('hi'), new AIMessage({ id: 'kept', content: 'hello' })]);
    expect(first!.id).toMatch(/^lc_[0-9a-f]{16}$/);
    expect(second!.id).toBe('kept');
  });

  it('rejects message types core has no equivalent for, naming them', () => {
    const legacy = new FunctionMessage({ name: 'f', content: '{}' });
    expect(() => toCoreMessages([new HumanMessage('hi'), legacy])).toThrow(InvalidMessageError);
    expect(() => toCoreMessages([legacy])).toThrow(/message 0: LangChain message type "function"/);
  });

  it('converts a message object once, and again when its id changed', () => {
    const human = new HumanMessage({ id: 'h1', content: 'hello' });
    const [first] = toCoreMessages([human]);
    expect(toCoreMessages([new SystemMessage({ id: 's', content: 'x' }), human])[1]).toBe(first);
    human._updateId('h2');
    const [renamed] = toCoreMessages([human]);
    expect(renamed).not.toBe(first);
    expect(renamed!.id).toBe('h2');
  });

  it('keeps the conversions of the most recent messages only, so holding many threads costs no memory of ours', () => {
    const first = new HumanMessage({ id: 'first', content: 'hello' });
    const [core] = toCoreMessages([first]);
    for (let index = 0; index < CONVERTED_MESSAGES_KEPT; index += 1) {
      toCoreMessages([new HumanMessage({ id: `m${index}`, content: 'x' })]);
    }
    expect(toCoreMessages([first])[0]).not.toBe(core);
    expect(toCoreMessages([first])[0]).toEqual(core);
    const recent = new HumanMessage({ id: 'recent', content: 'y' });
    const [kept] = toCoreMessages([recent]);
    for (let index = 0; index < CONVERTED_MESSAGES_KEPT / 4; index += 1) {
      toCoreMessages([new HumanMessage({ id: `n${index}`, content: 'x' })]);
    }
    expect(toCoreMessages([recent])[0]).toBe(kept);
  });

  it('names a tool result without a name after its call, also when only the result is new', () => {
    const call = new AIMessage({
      id: 'a',
      content: '',
      tool_calls: [{ id: 'c1', name: 'read_file', args: {}, type: 'tool_call' }],
    });
    const result = new ToolMessage({ id: 't', tool_call_id: 'c1', content: 'body' });
    const previous = extendToCore(undefined, [call]);
    const grown = extendToCore(previous, [call, result]);
    expect(grown.result[0]).toBe(previous.result[0]);
    expect(grown.result[1]!.parts).toEqual([
      { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: 'body' },
    ]);
  });
});
