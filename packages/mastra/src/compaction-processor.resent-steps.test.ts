import type { CompactionEvent, Message } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { describe, expect, it } from 'vitest';
import { fileText, SMALL_WINDOW } from './__fixtures__/agent-fixtures.js';
import { promptTokens, scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { fromCoreMessages } from './from-core-messages.js';

type GenerateInput = Parameters<Agent['generate']>[0];

const FILES = 12;

/** One user request answered by a long tool loop: an assistant step and its result per file. */
function toolLoop(): Message[] {
  const messages: Message[] = [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'Read all the files.' }] }];
  for (let file = 0; file < FILES; file += 1) {
    const toolCallId = `read-${file}`;
    messages.push(
      {
        id: `a${file}`,
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId, toolName: 'readFile', input: { path: `file${file}.ts` } }],
      },
      {
        id: `t${file}`,
        role: 'tool',
        parts: [{ type: 'tool-result', toolCallId, toolName: 'readFile', output: fileText(`file${file}.ts`) }],
      },
    );
  }
  messages.push({ id: 'done', role: 'assistant', parts: [{ type: 'text', text: 'All read.' }] });
  return messages;
}

describe('CompactionProcessor on a conversation kept outside Mastra', () => {
  it('sees every step of a re-sent tool loop, as the model does, and compacts it', async () => {
    const scripted = scriptedModel(() => ({ text: 'ok' }));
    const events: CompactionEvent[] = [];
    const processor = new CompactionProcessor({
      sessionId: 'resent',
      settings: { ...SMALL_WINDOW, pruneToolOutputs: false },
      onEvent: (event) => events.push(event),
    });
    const agent = new Agent({
      id: 'coder',
      name: 'coder',
      instructions: 'You are a coder.',
      model: scripted.model,
      inputProcessors: [processor],
    });
    // The caller keeps the conversation and re-sends all of it for every model call, as
    // input: Mastra merges consecutive assistant messages of the input into one.
    const history: Message[] = [];
    for (const message of toolLoop()) {
      if (message.role === 'assistant') {
        await agent.generate(fromCoreMessages(history) as GenerateInput, { maxSteps: 1 });
      }
      history.push(message);
    }

    // Uncompacted, the model gets each step's call and then its result, in order.
    const beforeCompaction = scripted.agentPrompts[3]!.filter((message) => message.role !== 'system');
    expect(beforeCompaction.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    const ends = events.filter((event) => event.type === 'compaction:end');
    expect(ends.length).toBeGreaterThan(0);
    expect(events.filter((event) => event.type === 'compaction:error')).toEqual([]);
    const last = scripted.agentPrompts.at(-1)!;
    expect(JSON.stringify(last)).toContain('SCRIPTED-SUMMARY');
    expect(promptTokens(last)).toBeLessThan(
      Math.max(...scripted.agentPrompts.map((prompt) => promptTokens(prompt))) * 0.75,
    );
  });
});
