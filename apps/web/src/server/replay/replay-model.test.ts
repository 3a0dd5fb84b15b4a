import type { Message } from '@compaction/core';
import { convertToModelMessages, stepCountIs, streamText, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { recordedCallId, replayedCallId, replayModel } from './replay-model.js';
import { replaySteps } from './replay-steps.js';
import { replayTools } from './replay-tools.js';

const recording: Message[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Fix the bug' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'Read', input: { file_path: 'src/a.ts' } },
    ],
  },
  {
    id: 't1',
    role: 'tool',
    parts: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'Read', output: 'export const a = 1;' }],
  },
  { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'Fixed.' }] },
];

async function respond(model: ReturnType<typeof replayModel>, sessionId: string, messages: UIMessage[]) {
  const tools = replayTools(replaySteps(recording));
  const result = streamText({
    model,
    messages: await convertToModelMessages(messages, { tools }),
    tools,
    stopWhen: stepCountIs(6),
    providerOptions: { compaction: { sessionId } },
  });
  return result.steps;
}

describe('replayModel', () => {
  it('replays the recorded steps, tool results included, and loops with unique call ids', async () => {
    const model = replayModel(replaySteps(recording));
    const user: UIMessage = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'go' }] };
    const steps = await respond(model, 'chat', [user]);
    expect(steps.map((step) => step.text)).toEqual(['Reading it.', 'Fixed.']);
    expect(steps[0]!.toolResults[0]).toMatchObject({ toolName: 'Read', output: 'export const a = 1;' });
    expect(steps[0]!.toolCalls[0]!.toolCallId).toBe(replayedCallId('call-1', 0));

    model.seek('chat', 2); // a new request starts after the two calls the history holds: the recording loops
    const again = await respond(model, 'chat', [user]);
    expect(again[0]!.toolCalls[0]!.toolCallId).toBe(replayedCallId('call-1', 2));
    expect(recordedCallId(again[0]!.toolCalls[0]!.toolCallId)).toBe('call-1');
  });

  it('ends a response after maxStepsPerResponse calls, with the recorded text only', async () => {
    const model = replayModel(replaySteps(recording), { maxStepsPerResponse: 1 });
    const steps = await respond(model, 'chat', [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'go' }] }]);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.toolCalls).toEqual([]);
    expect(steps[0]!.text).toBe('Reading it.');
  });

  it('refuses an empty recording or a bad step limit at once', () => {
    expect(() => replayModel([])).toThrow(/no assistant messages/);
    expect(() => replayModel(replaySteps(recording), { maxStepsPerResponse: 0 })).toThrow(/whole number ≥ 1/);
  });
});
