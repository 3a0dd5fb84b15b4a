import { APICallError } from '@ai-sdk/provider';
import { type CompactionEvent, SUMMARY_PREFIX } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import { lastUserText, promptText, readFile, SMALL_WINDOW, toolPairsIntact } from './__fixtures__/agent-fixtures.js';
import { type ModelPrompt, promptTokens, scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { withCompaction } from './with-compaction.js';

/** The provider's real limit is below what the settings assume, so auto-compaction (6,400) comes too late. */
const PROVIDER_LIMIT = 5000;

function overflowingModel() {
  return scriptedModel(
    (prompt) =>
      prompt.at(-1)?.role === 'tool'
        ? { text: 'Done reading.' }
        : { toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }] },
    {
      reject: (prompt: ModelPrompt) =>
        promptTokens(prompt) > PROVIDER_LIMIT
          ? new APICallError({
              message: `This model's maximum context length is ${PROVIDER_LIMIT} tokens. However, your messages resulted in ${promptTokens(prompt)} tokens.`,
              url: 'https://api.example.com/v1/chat/completions',
              requestBodyValues: {},
              statusCode: 400,
              isRetryable: false,
            })
          : undefined,
    },
  );
}

const config = (scripted: ReturnType<typeof scriptedModel>) => ({
  id: 'coder',
  name: 'coder',
  instructions: 'You are a coder.',
  model: scripted.model,
  tools: { readFile },
  memory: new Memory({ storage: new InMemoryStore(), options: { lastMessages: 1000 } }),
});
const thread = { memory: { thread: 't1', resource: 'u1' } };

describe('CompactionProcessor and context-overflow errors', () => {
  it('recovers from an overflow by one compaction and a retry (withCompaction)', async () => {
    const scripted = overflowingModel();
    const events: CompactionEvent[] = [];
    const agent = new Agent(
      withCompaction(config(scripted), { settings: SMALL_WINDOW, onEvent: (event) => events.push(event) }),
    );

    let turn = 0;
    while (!events.some((event) => event.type === 'compaction:end') && turn < 20) {
      const result = await agent.generate(`Read file${turn}.ts`, thread);
      expect(result.text).toBe('Done reading.');
      turn += 1;
    }

    const ends = events.filter((event) => event.type === 'compaction:end');
    expect(ends.map((event) => event.trigger)).toEqual(['overflow']);
    const rejected = scripted.agentPrompts.filter((prompt) => promptTokens(prompt) > PROVIDER_LIMIT);
    expect(rejected).toHaveLength(1);
    const retried = scripted.agentPrompts[scripted.agentPrompts.indexOf(rejected[0]!) + 1]!;
    expect(promptTokens(retried)).toBeLessThanOrEqual(PROVIDER_LIMIT);
    expect(promptText(retried)).toContain(SUMMARY_PREFIX);
    expect(toolPairsIntact(retried)).toBe(true);
    expect(scripted.agentPrompts.at(-1)).toBe(retried);
  });

  it('is not asked about the error when it is only an input processor: the overflow reaches the caller', async () => {
    const scripted = overflowingModel();
    const processor = new CompactionProcessor({ settings: SMALL_WINDOW });
    const agent = new Agent({ ...config(scripted), inputProcessors: [processor] });
    const run = async () => {
      for (let turn = 0; turn < 20; turn += 1) await agent.generate(`Read file${turn}.ts`, thread);
    };
    await expect(run()).rejects.toThrow(/maximum context length/);
  });

  it('leaves other errors alone', async () => {
    const scripted = scriptedModel(() => ({ text: 'never' }), {
      reject: () =>
        new APICallError({
          message: 'Internal server error',
          url: 'x',
          requestBodyValues: {},
          statusCode: 500,
          isRetryable: false,
        }),
    });
    const events: CompactionEvent[] = [];
    const agent = new Agent(
      withCompaction(config(scripted), { settings: SMALL_WINDOW, onEvent: (event) => events.push(event) }),
    );
    await expect(agent.generate('Read file0.ts', thread)).rejects.toThrow('Internal server error');
    expect(scripted.agentPrompts).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('appends to the processors already configured, static or dynamic', async () => {
    const other = { id: 'other', processInputStep: () => undefined };
    const processor = new CompactionProcessor();
    const added = withCompaction({ id: 'a', inputProcessors: [other] }, processor);
    expect(added.inputProcessors).toEqual([other, processor]);
    expect((added as { errorProcessors?: unknown }).errorProcessors).toEqual([processor]);
    const dynamic = withCompaction({ inputProcessors: async () => [other] }, processor);
    expect(await (dynamic.inputProcessors as () => Promise<unknown[]>)()).toEqual([other, processor]);
  });
});
