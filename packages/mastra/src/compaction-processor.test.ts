import { type CompactionEvent, memoryStore, type SessionStore, SUMMARY_PREFIX } from '@compaction/core';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import {
  coderAgent,
  fileText,
  lastUserText,
  promptText,
  SMALL_WINDOW,
  toolPairsIntact,
  toolTraffic,
} from './__fixtures__/agent-fixtures.js';
import { promptTokens, type ScriptedModel, scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';

/** Each turn asks for one file: the model reads it, then says so. */
function fileReader(): ScriptedModel {
  return scriptedModel((prompt) =>
    prompt.at(-1)?.role === 'tool'
      ? { text: 'Done reading.' }
      : { toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }] },
  );
}

function threadAgent(scripted: ScriptedModel, storage: InMemoryStore, store: SessionStore, events: CompactionEvent[]) {
  const processor = new CompactionProcessor({
    store,
    settings: { ...SMALL_WINDOW, pruneToolOutputs: false },
    onEvent: (event) => events.push(event),
  });
  // `lastMessages` high: Memory recalls the whole thread and compaction decides what the model sees.
  const memory = new Memory({ storage, options: { lastMessages: 1000 } });
  const agent = coderAgent({
    model: scripted.model,
    memory,
    inputProcessors: [processor],
    errorProcessors: [processor],
  });
  return { agent, memory };
}

const thread = { memory: { thread: 't1', resource: 'u1' } };

describe('CompactionProcessor on a Memory thread', () => {
  it('sends the summary and the recent messages, every tool call with its result, once the trigger is crossed', async () => {
    const scripted = fileReader();
    const events: CompactionEvent[] = [];
    const { agent } = threadAgent(scripted, new InMemoryStore(), memoryStore(), events);
    for (let turn = 0; turn < 12; turn += 1) await agent.generate(`Read file${turn}.ts`, thread);

    const compactions = events.filter((event) => event.type === 'compaction:end');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((event) => event.strategy === 'llm')).toBe(true);

    const last = scripted.agentPrompts.at(-1)!;
    expect(last[0]).toEqual({ role: 'system', content: 'You are a coder.' });
    expect(promptText(last)).toContain(SUMMARY_PREFIX);
    expect(promptText(last)).toContain('SCRIPTED-SUMMARY');
    expect(promptText(last)).not.toContain('Read file0.ts');
    expect(toolPairsIntact(last)).toBe(true);
    // The current run's own call and its full result are there.
    const { calls, results } = toolTraffic(last);
    const current = [...calls.entries()].find(([, input]) => (input as { path: string }).path === 'file11.ts');
    expect(current).toBeDefined();
    expect(JSON.stringify(results.get(current![0]))).toContain(JSON.stringify(fileText('file11.ts')).slice(1, -1));
    for (const prompt of scripted.agentPrompts) {
      expect(toolPairsIntact(prompt)).toBe(true);
      expect(promptTokens(prompt)).toBeLessThan(SMALL_WINDOW.contextWindow);
    }
  });

  it('keeps every message in the thread and reuses the stored compaction on the next run', async () => {
    const scripted = fileReader();
    const storage = new InMemoryStore();
    const store = memoryStore();
    const events: CompactionEvent[] = [];
    const { agent, memory } = threadAgent(scripted, storage, store, events);
    let turn = 0;
    while (!events.some((event) => event.type === 'compaction:end')) {
      await agent.generate(`Read file${turn}.ts`, thread);
      turn += 1;
    }
    const summariesSoFar = scripted.summaryPrompts.length;

    // A new processor (a restarted server) over the same stores.
    const restarted = threadAgent(scripted, storage, store, events);
    await restarted.agent.generate(`Read file${turn}.ts`, thread);
    turn += 1;

    expect(scripted.summaryPrompts.length).toBe(summariesSoFar);
    expect(events.filter((event) => event.type === 'compaction:end')).toHaveLength(1);
    expect(promptText(scripted.agentPrompts.at(-1)!)).toContain('SCRIPTED-SUMMARY');

    const { messages } = await memory.recall({ threadId: 't1', resourceId: 'u1' });
    expect(messages).toHaveLength(2 * turn);
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content.content)).toEqual(
      Array.from({ length: turn }, (_, index) => `Read file${index}.ts`),
    );
    expect(JSON.stringify(messages)).not.toContain('SCRIPTED-SUMMARY');

    // The usage the provider reported for the last call is recorded for the next estimate.
    const record = await store.loadRecord('t1');
    expect(record?.state?.summary).toContain('SCRIPTED-SUMMARY');
    expect(record?.usage?.inputTokens).toBe(promptTokens(scripted.agentPrompts.at(-1)!));
  });
});
