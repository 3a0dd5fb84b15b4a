import { heuristicCounter, type Message, memoryStore } from '@compaction/core';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import { coderAgent, lastUserText } from './__fixtures__/agent-fixtures.js';
import { faultyStore } from './__fixtures__/faulty-store.js';
import { ListRecorder } from './__fixtures__/list-recorder.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { toCoreMessages } from './to-core-messages.js';

/**
 * The ids of core messages, with their roles. (Their content is not compared: a core message made from a
 * Mastra message carries some of its part objects, which Mastra changes in place after the step, as the
 * stored thread shows; the copies the recorder made do not.)
 */
const ids = (messages: readonly Message[]) => messages.map((message) => `${message.role} ${message.id}`);

const reader = () =>
  scriptedModel((prompt) =>
    prompt.at(-1)?.role === 'tool'
      ? { text: 'Done reading.' }
      : lastUserText(prompt).startsWith('Read ')
        ? { toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }] }
        : { text: `Reply to ${lastUserText(prompt)}` },
  );

describe('CompactionProcessor when a step fails', () => {
  it('keeps what the session held when the store refuses a new run’s branch: the history and the usage record as they were', async () => {
    const storage = new InMemoryStore();
    const faults = faultyStore(memoryStore());
    const scripted = reader();
    const accepted = new ListRecorder('accepted');
    const processor = new CompactionProcessor({
      counter: heuristicCounter(),
      summarizer: 'structured',
      store: faults.store,
      settings: { contextWindow: 1_000_000 },
    });
    const agent = coderAgent({
      model: scripted.model,
      memory: new Memory({ storage, options: { lastMessages: 1000 } }),
      inputProcessors: [processor, accepted],
    });
    const memory = { thread: 't-faults', resource: 'u1' };
    await agent.generate('Hello', { memory });
    // Two steps: the second is sent counted, not loaded (the first step's usage stands for the history).
    await agent.generate('Read a.ts', { memory });
    const session = processor.session('t-faults')!;
    const record = await faults.inner.loadRecord('t-faults');
    expect(record?.usage?.historyLength).toBe(6);

    // A new run that recalls only the last two messages: another history (a branch), whose record write fails.
    faults.failWrites(1);
    const failed = await agent.generate('Next', { memory: { ...memory, options: { lastMessages: 2 } } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);

    // The session holds what it held before the failed step: the last step's list, whole, and its record.
    const held = ids(toCoreMessages(accepted.lists.at(-1)!));
    expect(ids(await session.history())).toEqual(held);
    expect(await faults.inner.loadRecord('t-faults')).toEqual(record);
    expect((await session.stats()).historyMessages).toBe(held.length);

    // The store back, the same run again: the branch is taken and the call's usage recorded.
    await agent.generate('Next', { memory: { ...memory, options: { lastMessages: 2 } } });
    expect(ids(await session.history())).toEqual(ids(toCoreMessages(accepted.lists.at(-1)!)));
    expect((await faults.inner.loadRecord('t-faults'))?.usage?.historyLength).toBe(
      toCoreMessages(accepted.lists.at(-1)!).length,
    );
  });
});
