import { heuristicCounter, memoryStore, processCountedConversationMemory } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import { lastUserText, promptText, readFile, toolTraffic } from './__fixtures__/agent-fixtures.js';
import { ListRecorder } from './__fixtures__/list-recorder.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { compactionContextTools } from './context-tools.js';
import { toCoreMessages } from './to-core-messages.js';

const thread = { memory: { thread: 't-counted', resource: 'u1' } };

describe('CompactionProcessor with threads held counted, not loaded', () => {
  it('sends the thread as it is far below the trigger, keeps it in the counted budget, and loads it back for the context tools', async () => {
    const texts: string[] = [];
    const base = heuristicCounter();
    const counter = {
      name: 'recording-counted',
      countText(text: string) {
        texts.push(text);
        return base.countText(text);
      },
    };
    const scripted = scriptedModel((prompt) => ({ text: `Reply to ${lastUserText(prompt).split(':')[0]}` }));
    const processor = new CompactionProcessor({
      counter,
      summarizer: 'structured',
      store: memoryStore(),
      settings: { contextWindow: 1_000_000 },
    });
    const agent = new Agent({
      id: 'notes',
      name: 'notes',
      instructions: 'Take notes.',
      model: scripted.model,
      memory: new Memory({ storage: new InMemoryStore(), options: { lastMessages: 1000 } }),
      inputProcessors: [processor],
    });
    const countedBefore = processCountedConversationMemory().size;
    for (let note = 0; note < 8; note += 1) await agent.generate(`Note ${note}: ${'words '.repeat(20)}`, thread);

    // Usage reported: the thread is held counted, in its own budget.
    expect(processCountedConversationMemory().size).toBe(countedBefore + 1);
    texts.length = 0;
    await agent.generate(`Note 8: ${'words '.repeat(20)}`, thread);
    // The model saw the whole thread; nothing was counted, not even what was new: far below the
    // trigger, the usage record carries core's count forward (issue 16, session 8).
    expect(promptText(scripted.agentPrompts.at(-1)!)).toContain('Note 0:');
    expect(texts).toEqual([]);

    // Whatever reads the old messages gets them from the thread, all of them.
    const session = processor.session('t-counted')!;
    const history = await session.history();
    const text = history.flatMap((message) => message.parts.map((part) => (part.type === 'text' ? part.text : '')));
    for (let note = 0; note <= 8; note += 1) expect(text.join('\n')).toContain(`Note ${note}:`);
    expect((await session.stats()).historyMessages).toBe(history.length);

    // And the next run goes on from there, counted again.
    await agent.generate(`Note 9: ${'words '.repeat(20)}`, thread);
    expect(promptText(scripted.agentPrompts.at(-1)!)).toContain('Note 9:');
    expect(await session.state()).toBeUndefined();
  });

  it('answers a context tool mid-run from the history the run’s last step sent, counted, and writes nothing', async () => {
    const scripted = scriptedModel((prompt, call) => {
      if (lastUserText(prompt) === 'Hello') return { text: 'Hi.' };
      if (call === 1) return { toolCalls: [{ toolName: 'readFile', input: { path: 'a.ts' } }] };
      if (call === 2) return { toolCalls: [{ toolName: 'context_stats', input: {} }] };
      return { text: 'Done.' };
    });
    const store = memoryStore();
    const processor = new CompactionProcessor({
      counter: heuristicCounter(),
      summarizer: 'structured',
      store,
      settings: { contextWindow: 1_000_000 },
    });
    const taken = new ListRecorder('taken');
    const agent = new Agent({
      id: 'reader',
      name: 'reader',
      instructions: 'Read files.',
      model: scripted.model,
      tools: { readFile, ...compactionContextTools(processor) },
      memory: new Memory({ storage: new InMemoryStore(), options: { lastMessages: 1000 } }),
      inputProcessors: [processor, taken],
    });
    const memory = { thread: 't-mid-run', resource: 'u1' };
    await agent.generate('Hello', { memory });
    // Steps 1 and 2 are sent counted; the second step's answer is a context_stats call, which reads the
    // session (held counted: it loads the history back) before the third step.
    await agent.generate('Read a.ts, then look at the context.', { memory, maxSteps: 5 });

    const stats = [...toolTraffic(scripted.agentPrompts.at(-1)!).results.values()].at(-1) as {
      value?: { historyMessages: number };
    };
    // What the tool saw: the history as the second step sent it.
    const secondStep = toCoreMessages(taken.lists.at(-2)!);
    expect(stats.value?.historyMessages).toBe(secondStep.length);
    // And it wrote nothing: the usage record of that step still stands for the history.
    const record = await store.loadRecord('t-mid-run');
    expect(record?.usage?.historyLength).toBeGreaterThan(0);
    const history = await processor.session('t-mid-run')!.history();
    expect(history.map((message) => message.id)).toEqual(
      toCoreMessages(taken.lists.at(-1)!).map((message) => message.id),
    );
  });
});
