import type { CompactionEvent, Summarizer } from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastUserText, readFile, SMALL_WINDOW } from './__fixtures__/agent-fixtures.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import { mastraSummarizer } from './mastra-summarizer.js';
import { threadMetadataStore } from './thread-store/thread-metadata-store.js';
import { readThreadRecordEntry } from './thread-store/thread-record-entry.js';

/** What "another process" (or a person) does to the thread's metadata behind the processor's back. */
type Interference = 'none' | 'bump' | 'newer-state' | 'clear' | 'corrupt' | 'user-key';
/** When: before the turn, or while the processor summarizes during it. */
type Timing = 'before-turn' | 'while-summarizing';

const interference = fc.record({
  kind: fc.constantFrom<Interference>('none', 'bump', 'newer-state', 'clear', 'corrupt', 'user-key'),
  timing: fc.constantFrom<Timing>('before-turn', 'while-summarizing'),
});

describe('CompactionProcessor on a thread whose metadata others write: any writes, any timing', () => {
  it('answers every request, keeps the user key and the other writer’s newer state, and leaves a readable entry that fits the thread', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(interference, { minLength: 10, maxLength: 14 }), async (turns) => {
        const storage = new InMemoryStore();
        const scripted = scriptedModel((prompt) =>
          prompt.at(-1)?.role === 'tool'
            ? { text: 'Done reading.' }
            : { toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }] },
        );
        const other = threadMetadataStore(storage);
        const domain = (await storage.getStore('memory'))!;
        let userKey = 'apollo';
        /** The newest compaction version the other writer saved (0 after it cleared or corrupted the entry). */
        let floorVersion = 0;
        let pending: (() => Promise<void>) | undefined;
        const llm = mastraSummarizer(scripted.model);
        const summarizer: Summarizer = {
          name: 'llm',
          async summarize(request) {
            const write = pending;
            pending = undefined;
            await write?.();
            return llm.summarize(request);
          },
        };
        const interfere = async (kind: Interference) => {
          if (kind === 'none') return;
          if (kind === 'user-key') {
            userKey = `project-${Math.random()}`;
            const thread = await domain.getThreadById({ threadId: 't1' });
            await domain.updateThread({ id: 't1', metadata: { ...thread?.metadata, project: userKey } });
            return;
          }
          if (kind === 'corrupt') {
            const thread = await domain.getThreadById({ threadId: 't1' });
            await domain.updateThread({ id: 't1', metadata: { ...thread?.metadata, compaction: { revision: 'x' } } });
            floorVersion = 0;
            return;
          }
          if (kind === 'clear') {
            floorVersion = 0;
            return other.clear('t1');
          }
          const record = await other.loadRecord('t1').catch(() => undefined);
          if (!record) return;
          const state =
            kind === 'newer-state' && record.state
              ? { ...record.state, version: record.state.version + 1, summary: `${record.state.summary}\n- OTHER` }
              : record.state;
          await other.saveRecord(
            't1',
            { ...record, ...(state ? { state } : {}) },
            { expectedRevision: record.revision! },
          );
          if (kind === 'newer-state' && state) floorVersion = state.version;
        };

        const events: CompactionEvent[] = [];
        const processor = new CompactionProcessor({
          summarizer,
          settings: { ...SMALL_WINDOW, pruneToolOutputs: false },
          onEvent: (event) => events.push(event),
        });
        const memory = new Memory({ storage, options: { lastMessages: 1000 } });
        const agent = new Agent({
          id: 'coder',
          name: 'coder',
          instructions: 'You are a coder.',
          model: scripted.model,
          tools: { readFile },
          memory,
          inputProcessors: [processor],
          errorProcessors: [processor],
        });
        const run = { memory: { thread: { id: 't1', metadata: { project: userKey } }, resource: 'u1' } };
        await agent.generate('Read file0.ts', run);

        let lastRevision = 0;
        for (const [index, { kind, timing }] of turns.entries()) {
          if (timing === 'before-turn') await interfere(kind);
          else pending = () => interfere(kind);
          const request = `Read file${index + 1}.ts`;
          const prompts = scripted.agentPrompts.length;
          await agent.generate(request, { memory: { thread: 't1', resource: 'u1' } });
          pending = undefined;
          // The request reached the model, whole, at every step of its run.
          const sent = scripted.agentPrompts.slice(prompts);
          expect(sent.length).toBeGreaterThan(0);
          for (const prompt of sent) expect(lastUserText(prompt)).toBe(request);
          // Every turn saves its usage: the entry is readable again and its revision moved on.
          const thread = await domain.getThreadById({ threadId: 't1' });
          expect(thread?.metadata?.project).toBe(userKey);
          const read = readThreadRecordEntry(thread?.metadata?.compaction, 't1');
          expect(read.record?.usage).toBeDefined();
          expect(read.lastRevision).toBeGreaterThan(lastRevision);
          lastRevision = read.lastRevision;
          const state = read.record?.state;
          // What the other writer saved is built on or kept, never written over by an older state.
          expect(state?.version ?? 0).toBeGreaterThanOrEqual(floorVersion);
          if (state) {
            const { messages } = await memory.recall({ threadId: 't1', resourceId: 'u1' });
            expect(messages.map((message) => message.id)).toContain(state.firstKeptMessageId);
          }
        }
        expect(events.some((event) => event.type === 'compaction:end')).toBe(true);
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
