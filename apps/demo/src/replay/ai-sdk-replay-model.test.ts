import { countMessageTokens, type Message, tiktokenCounter } from '@compaction/core';
import { generateText, jsonSchema, type LanguageModelMiddleware, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkPromptToCore } from './ai-sdk-prompt-to-core.js';
import { aiSdkReplayModel } from './ai-sdk-replay-model.js';

const recording: Message[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is in src/?' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Bash', input: { command: 'ls src' } },
    ],
  },
  {
    id: 't1',
    role: 'tool',
    parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'Bash', output: 'main.rs lib.rs' }],
  },
  { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'Two files: main.rs and lib.rs.' }] },
];
const tools = { Bash: tool({ inputSchema: jsonSchema({ type: 'object' }) }) };

describe('aiSdkReplayModel', () => {
  it('answers generateText with the recorded text and tool calls', async () => {
    const model = aiSdkReplayModel(recording);
    const first = await generateText({ model, prompt: 'What is in src/?', tools });
    expect(first.text).toBe('Let me look.');
    expect(first.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['Bash', { command: 'ls src' }]]);
    expect(first.finishReason).toBe('tool-calls');
    const second = await generateText({ model, prompt: 'go on' });
    expect(second.text).toBe('Two files: main.rs and lib.rs.');
  });

  it('streams the same reply', async () => {
    const result = streamText({ model: aiSdkReplayModel(recording.slice(3)), prompt: 'hi' });
    expect(await result.text).toBe('Two files: main.rs and lib.rs.');
  });

  it('reports the usage of the prompt it received, so a middleware that shrinks the prompt shows', async () => {
    const counter = tiktokenCounter();
    const seen: number[] = [];
    const keepLast: LanguageModelMiddleware = {
      transformParams: async ({ params }) => ({ ...params, prompt: params.prompt.slice(-1) }),
    };
    const messages = [
      { role: 'user' as const, content: 'A long first question about the gateway and its session store.' },
      { role: 'assistant' as const, content: 'A long first answer about the gateway.' },
      { role: 'user' as const, content: 'Short.' },
    ];
    for (const middleware of [[], [keepLast]]) {
      const model = wrapLanguageModel({
        model: aiSdkReplayModel(recording.slice(3), { counter }),
        middleware,
      });
      const result = await generateText({ model, messages });
      seen.push(result.usage.inputTokens ?? -1);
    }
    const expectedFull = aiSdkPromptToCore(
      messages.map((message) => ({ role: message.role, content: [{ type: 'text', text: message.content }] })),
    ).reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
    expect(seen[0]).toBe(expectedFull);
    expect(seen[1]).toBe(
      countMessageTokens({ id: 'x', role: 'user', parts: [{ type: 'text', text: 'Short.' }] }, counter),
    );
  });
});
