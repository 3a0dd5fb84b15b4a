import {
  buildContext,
  type CompactionState,
  MISSING_RESULT_OUTPUT,
  PRUNED_OUTPUT_MARKER,
  SUMMARY_PREFIX,
} from '@compaction/core';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { fromCoreMessages } from './from-core-messages.js';
import { originalMessage, toCoreMessages } from './to-core-messages.js';

const history = [
  new HumanMessage({ id: 'h1', content: 'Read the config.' }),
  new AIMessage({
    id: 'a1',
    content: '',
    additional_kwargs: { reasoning: { id: 'rs_1', encrypted_content: 'opaque' } },
    tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'a.json' }, type: 'tool_call' }],
  }),
  new ToolMessage({
    id: 't1',
    tool_call_id: 'c1',
    name: 'read_file',
    content: '{"big": true}',
    artifact: { bytes: 13 },
  }),
  new AIMessage({ id: 'a2', content: 'It is big.' }),
  new HumanMessage({ id: 'h2', content: 'And now?' }),
];

function state(overrides: Partial<CompactionState>): CompactionState {
  return {
    schema: 1,
    version: 1,
    summary: '## Goal\n- read the config',
    firstKeptMessageId: 'a1',
    summarizedRange: { fromIndex: 0, toIndex: 0, messageCount: 1 },
    prunedToolCallIds: [],
    fileOps: { read: [], modified: [] },
    tokensBefore: 100,
    tokensAfter: 50,
    strategy: 'structured',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('fromCoreMessages', () => {
  it('builds the summary and acknowledgement, keeps the other messages as the same objects', () => {
    const sent = fromCoreMessages(buildContext(toCoreMessages(history), state({ firstKeptMessageId: 'h2' })));
    expect(sent.map((message) => message.type)).toEqual(['human', 'ai', 'human']);
    expect(sent[0]!.id).toMatch(/^compaction-summary-v1-[0-9a-f]{12}$/);
    expect(sent[0]!.text.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(sent[0]!.additional_kwargs).toEqual({
      lc_source: 'compaction',
      compaction: { type: 'summary', version: 1, strategy: 'structured' },
    });
    expect(sent[1]!.id).toMatch(/^compaction-ack-v1-[0-9a-f]{12}$/);
    expect(sent[2]).toBe(history[4]);
  });

  it('copies a pruned ToolMessage with the marker as content and keeps the AI message with its kwargs', () => {
    const sent = fromCoreMessages(buildContext(toCoreMessages(history), state({ prunedToolCallIds: ['c1'] })));
    expect(sent[1]).toBe(history[1]);
    const pruned = sent[2] as ToolMessage;
    expect(pruned).not.toBe(history[2]);
    expect(pruned).toMatchObject({
      id: 't1',
      tool_call_id: 'c1',
      name: 'read_file',
      content: PRUNED_OUTPUT_MARKER,
      artifact: { bytes: 13 },
    });
    expect(ToolMessage.isInstance(pruned)).toBe(true);
  });

  it('turns synthetic results for interrupted tool calls into one error ToolMessage each', () => {
    const dangling = new AIMessage({
      id: 'a9',
      content: '',
      tool_calls: [
        { id: 'x1', name: 'read_file', args: {}, type: 'tool_call' },
        { id: 'x2', name: 'grep', args: {}, type: 'tool_call' },
      ],
    });
    const sent = fromCoreMessages(buildContext(toCoreMessages([...history, dangling]), undefined));
    const results = sent.slice(-2) as ToolMessage[];
    expect(
      results.map((message) => [message.id, message.tool_call_id, message.name, message.status, message.content]),
    ).toEqual([
      ['a9:missing-results:x1', 'x1', 'read_file', 'error', MISSING_RESULT_OUTPUT],
      ['a9:missing-results:x2', 'x2', 'grep', 'error', MISSING_RESULT_OUTPUT],
    ]);
  });

  it('drops an orphan ToolMessage core left out of the context', () => {
    const orphan = new ToolMessage({ id: 'tx', tool_call_id: 'gone', content: 'stray' });
    const sent = fromCoreMessages(buildContext(toCoreMessages([history[0]!, orphan, history[3]!]), undefined));
    expect(sent).toEqual([history[0], history[3]]);
  });

  it('gives back the original only for a message core left as converted: not for a copy with other parts, nor one read back from JSON', () => {
    const [human] = toCoreMessages([new HumanMessage({ id: 'h', content: 'hello' })]);
    expect(fromCoreMessages([human!])[0]).toBe(originalMessage(human!));
    const edited = { ...human!, parts: [{ type: 'text' as const, text: 'hello there' }] };
    const rebuilt = fromCoreMessages([edited])[0]!;
    expect(rebuilt).not.toBe(fromCoreMessages([human!])[0]);
    expect(rebuilt.content).toBe('hello there');
    const readBack = JSON.parse(JSON.stringify(human));
    expect(JSON.stringify(readBack.metadata.langchain)).not.toContain('parts');
    const fromJson = fromCoreMessages([readBack])[0]!;
    expect(HumanMessage.isInstance(fromJson)).toBe(true);
    expect(fromJson.content).toBe('hello');
  });
});
