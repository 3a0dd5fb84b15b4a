import { type CompactionEvent, heuristicCounter, type Summarizer, structuredSummarizer } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import { fileText, lastUserText, promptText, SMALL_WINDOW } from './__fixtures__/agent-fixtures.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';

const thread = { memory: { thread: 't1', resource: 'u1' } };

/** A Memory that recalls the whole thread, so compaction decides what the model sees. */
const wholeThread = (storage: InMemoryStore) => new Memory({ storage, options: { lastMessages: 1000 } });

/** The model answers every note by naming it. */
const noteTaker = () => scriptedModel((prompt) => ({ text: `Reply to ${lastUserText(prompt).split(':')[0]}` }));

describe('CompactionProcessor across the runs of a thread', () => {
  it('counts only the messages a new run adds, not the whole history again', async () => {
    const texts: string[] = [];
    const base = heuristicCounter();
    const counter = {
      name: 'recording',
      countText(text: string) {
        texts.push(text);
        return base.countText(text);
      },
    };
    const scripted = noteTaker();
    const agent = new Agent({
      id: 'notes',
      name: 'notes',
      instructions: 'Take notes.',
      model: scripted.model,
      memory: wholeThread(new InMemoryStore()),
      inputProcessors: [new CompactionProcessor({ counter, summarizer: 'structured' })],
    });
    for (let note = 0; note < 10; note += 1) await agent.generate(`Note ${note}: ${'words '.repeat(20)}`, thread);
    expect(texts.join('\n')).toContain('Note 0:');

    texts.length = 0;
    await agent.generate(`Note 10: ${'words '.repeat(20)}`, thread);

    // Not even what is new to the session (the last run's reply, made after its last model call,
    // and this input): far below the trigger, the usage record carries core's count forward
    // (issue 16, session 8).
    const counted = texts.join('\n');
    expect(texts).toEqual([]);
    for (let note = 0; note < 9; note += 1) {
      expect(counted).not.toContain(`Note ${note}:`);
      expect(counted).not.toContain(`Reply to Note ${note}\n`);
    }
    expect(scripted.agentPrompts).toHaveLength(11);
    expect(promptText(scripted.agentPrompts.at(-1)!)).toContain('Note 0:');
  });

  it('gives overlapping runs of one thread each their own context while one of them compacts', async () => {
    const storage = new InMemoryStore();
    const scripted = noteTaker();
    const filler = new Agent({
      id: 'notes',
      name: 'notes',
      instructions: 'Take notes.',
      model: scripted.model,
      memory: wholeThread(storage),
    });
    // A thread over the trigger, written without compaction.
    for (let note = 0; note < 8; note += 1) await filler.generate(`Note ${note}: ${fileText(`n${note}`)}`, thread);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let summarizing!: () => void;
    const started = new Promise<void>((resolve) => {
      summarizing = resolve;
    });
    const structured = structuredSummarizer();
    const summarizer: Summarizer = {
      name: 'gated',
      async summarize(request) {
        summarizing();
        await gate;
        return structured.summarize(request);
      },
    };
    const events: CompactionEvent[] = [];
    const agent = new Agent({
      id: 'notes',
      name: 'notes',
      instructions: 'Take notes.',
      model: scripted.model,
      memory: wholeThread(storage),
      inputProcessors: [
        new CompactionProcessor({ summarizer, settings: SMALL_WINDOW, onEvent: (event) => events.push(event) }),
      ],
    });

    const first = agent.generate('Question A: what was in n0?', thread);
    await started; // run A is compacting
    const second = agent.generate('Question B: what was in n1?', thread);
    await new Promise((resolve) => setTimeout(resolve, 50)); // run B reaches the processor meanwhile
    release();
    await Promise.all([first, second]);

    expect(events.some((event) => event.type === 'compaction:end')).toBe(true);
    const [promptA, promptB] = scripted.agentPrompts
      .slice(-2)
      .sort((x, y) => lastUserText(x).localeCompare(lastUserText(y)));
    expect(lastUserText(promptA!)).toBe('Question A: what was in n0?');
    expect(promptText(promptA!)).not.toContain('Question B');
    expect(lastUserText(promptB!)).toBe('Question B: what was in n1?');
  });
});
