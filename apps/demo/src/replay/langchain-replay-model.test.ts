import { countMessageTokens, type Message, tiktokenCounter } from '@compaction/core';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { langChainMessagesToCore } from './langchain-messages-to-core.js';
import { LangChainReplayModel } from './langchain-replay-model.js';

const recording: Message[] = [
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Reading.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'src/main.rs' } },
    ],
  },
  { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'main.rs starts the server.' }] },
];

describe('LangChainReplayModel', () => {
  it('answers with the recorded text and tool calls, and usage counted from the messages it received', async () => {
    const counter = tiktokenCounter();
    const model = new LangChainReplayModel(recording, { counter });
    const input = [new HumanMessage('What does main.rs do?')];
    const first = await model.invoke(input);
    expect(first.content).toBe('Reading.');
    expect(first.tool_calls?.map((call) => [call.id, call.name, call.args])).toEqual([
      ['c1', 'Read', { file_path: 'src/main.rs' }],
    ]);
    expect(first.usage_metadata?.input_tokens).toBe(countMessageTokens(langChainMessagesToCore(input)[0]!, counter));

    const followUp = [
      ...input,
      new AIMessage({
        content: 'Reading.',
        tool_calls: [{ id: 'c1', name: 'Read', args: { file_path: 'src/main.rs' } }],
      }),
      new ToolMessage({ content: 'fn main() { serve(); }', tool_call_id: 'c1', name: 'Read' }),
    ];
    const second = await model.invoke(followUp);
    expect(second.content).toBe('main.rs starts the server.');
    const counted = langChainMessagesToCore(followUp).reduce(
      (sum, message) => sum + countMessageTokens(message, counter),
      0,
    );
    expect(second.usage_metadata?.input_tokens).toBe(counted);
    expect(second.usage_metadata!.input_tokens).toBeGreaterThan(first.usage_metadata!.input_tokens);
  });

  it('shares its replies with the model bindTools returns', async () => {
    const model = new LangChainReplayModel(recording);
    const bound = model.bindTools([]);
    await bound.invoke([new HumanMessage('hi')]);
    expect(model.replies.calls).toBe(1);
  });
});
