import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CompactionEvent,
  memoryStore,
  type SessionStore,
  SUMMARY_PREFIX,
  type SummarizeRequest,
  type Summarizer,
} from '@compaction/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore, type MastraCompositeStore } from '@mastra/core/storage';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fileText, lastUserText, promptText, readFile, SMALL_WINDOW } from './__fixtures__/agent-fixtures.js';
import { type ScriptedModel, scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';
import { mastraSummarizer } from './mastra-summarizer.js';
import { threadMetadataStore } from './thread-store/thread-metadata-store.js';
import { readThreadRecordEntry } from './thread-store/thread-record-entry.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-mastra-metadata-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
/** A new SQLite file for Mastra's LibSQL storage. */
function databaseUrl(): string {
  files += 1;
  return `file:${join(directory, `agent-${files}.db`)}`;
}

/** Each turn asks for one file: the model reads it, then says so. */
function fileReader(): ScriptedModel {
  return scriptedModel((prompt) =>
    prompt.at(-1)?.role === 'tool'
      ? { text: 'Done reading.' }
      : { toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }] },
  );
}

/** A real Agent with a real Memory over `storage`, compacting with `options` (no store unless given). */
function agentOver(storage: MastraCompositeStore, scripted: ScriptedModel, options: CompactionProcessorOptions = {}) {
  const events: CompactionEvent[] = [];
  const processor = new CompactionProcessor({
    settings: { ...SMALL_WINDOW, pruneToolOutputs: false },
    onEvent: (event) => events.push(event),
    ...options,
  });
  // `lastMessages` high: Memory recalls the whole thread and compaction decides what the model sees.
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
  return { agent, memory, events, processor };
}

const RUN = { memory: { thread: { id: 't1', metadata: { project: 'apollo' } }, resource: 'u1' } };

async function entryOf(memory: Memory) {
  const thread = await memory.getThreadById({ threadId: 't1' });
  return { metadata: thread?.metadata ?? {}, read: readThreadRecordEntry(thread?.metadata?.compaction, 't1') };
}

/** Runs turns until the agent's processor has compacted `count` times; returns the next turn number. */
async function turnsUntilCompacted(agent: Agent, events: CompactionEvent[], from: number, count = 1): Promise<number> {
  let turn = from;
  while (events.filter((event) => event.type === 'compaction:end').length < count) {
    await agent.generate(`Read file${turn}.ts`, RUN);
    turn += 1;
    if (turn > from + 40) throw new Error('no compaction in 40 turns');
  }
  return turn;
}

describe("CompactionProcessor keeps the compaction record in the Mastra thread's metadata", () => {
  it('next to the thread’s other keys, and a restarted server loads it instead of summarizing again', async () => {
    const url = databaseUrl();
    const first = fileReader();
    const storage = new LibSQLStore({ id: 'app', url });
    const server = agentOver(storage, first);
    let turn = await turnsUntilCompacted(server.agent, server.events, 0);

    const compacted = await entryOf(server.memory);
    expect(compacted.metadata.project).toBe('apollo');
    expect(compacted.read.record?.state?.summary).toContain('SCRIPTED-SUMMARY');
    expect(compacted.read.record?.revision).toBe(compacted.read.lastRevision);

    // The user changes their own key; the next turn writes ours again and leaves theirs.
    await server.memory.updateThread({
      id: 't1',
      title: 'files',
      metadata: { ...compacted.metadata, project: 'hermes' },
    });
    await server.agent.generate(`Read file${turn}.ts`, { memory: { thread: 't1', resource: 'u1' } });
    turn += 1;
    const updated = await entryOf(server.memory);
    expect(updated.metadata.project).toBe('hermes');
    expect(updated.read.lastRevision).toBeGreaterThan(compacted.read.lastRevision);
    expect(updated.read.record?.usage?.inputTokens).toBeGreaterThan(0);
    const summary = updated.read.record?.state?.summary as string;

    // A restart: a new storage connection, Memory, model, Agent and processor over the same file.
    const second = fileReader();
    const restarted = agentOver(new LibSQLStore({ id: 'app', url }), second);
    await restarted.agent.generate(`Read file${turn}.ts`, { memory: { thread: 't1', resource: 'u1' } });

    expect(second.summaryPrompts).toHaveLength(0);
    expect(restarted.events.filter((event) => event.type === 'compaction:start')).toHaveLength(0);
    const prompt = promptText(second.agentPrompts[0]!);
    expect(prompt).toContain(SUMMARY_PREFIX);
    expect(prompt).toContain(summary);
    expect(prompt).not.toContain('Read file0.ts');
    expect(lastUserText(second.agentPrompts[0]!)).toBe(`Read file${turn}.ts`);
    expect((await entryOf(restarted.memory)).metadata.project).toBe('hermes');
  });

  it('reloads a newer record saved behind its back mid-compaction and recomputes on it: nothing lost', async () => {
    const storage = new LibSQLStore({ id: 'app', url: databaseUrl() });
    const scripted = fileReader();
    const requests: SummarizeRequest[] = [];
    let behindBack: (() => Promise<void>) | undefined;
    const llm = mastraSummarizer(scripted.model);
    const summarizer: Summarizer = {
      name: 'llm',
      async summarize(request) {
        requests.push(request);
        const write = behindBack;
        behindBack = undefined;
        await write?.(); // another server saves its compaction while this one summarizes
        return llm.summarize(request);
      },
    };
    const server = agentOver(storage, scripted, { summarizer });
    let turn = await turnsUntilCompacted(server.agent, server.events, 0);

    const other = threadMetadataStore(storage);
    let otherVersion = 0;
    behindBack = async () => {
      const record = await other.loadRecord('t1');
      const state = record!.state!;
      otherVersion = state.version + 1;
      const next = { ...state, version: otherVersion, summary: `${state.summary}\n- OTHER-SERVER` };
      await other.saveRecord('t1', { ...record, state: next }, { expectedRevision: record!.revision! });
    };
    const before = requests.length;
    turn = await turnsUntilCompacted(server.agent, server.events, turn, 2);

    // The save of the compaction computed from the old state was refused; it was recomputed on the other's.
    expect(otherVersion).toBeGreaterThan(0);
    const after = requests.slice(before);
    expect(after.length).toBeGreaterThanOrEqual(2);
    expect(after.at(-1)?.previousSummary).toContain('OTHER-SERVER');
    const { read } = await entryOf(server.memory);
    expect(read.record?.state?.version).toBe(otherVersion + 1);
    expect(server.events.filter((event) => event.type === 'compaction:error')).toEqual([]);
    // Every run's request reached the model verbatim.
    for (const prompt of scripted.agentPrompts) expect(lastUserText(prompt)).toMatch(/^Read file\d+\.ts$/);
    expect(lastUserText(scripted.agentPrompts.at(-1)!)).toBe(`Read file${turn - 1}.ts`);
  });

  it('adopts a record saved behind its back on its next save, instead of writing over it', async () => {
    const storage = new InMemoryStore();
    const scripted = fileReader();
    const server = agentOver(storage, scripted);
    let turn = await turnsUntilCompacted(server.agent, server.events, 0);

    const other = threadMetadataStore(storage);
    const record = (await other.loadRecord('t1'))!;
    const state = {
      ...record.state!,
      version: record.state!.version + 1,
      summary: `${record.state!.summary}\n- OTHER`,
    };
    const revision = (await other.saveRecord(
      't1',
      { ...record, state },
      { expectedRevision: record.revision! },
    )) as number;

    // This turn's usage save meets the newer revision: the session reloads and merges its usage onto it.
    await server.agent.generate(`Read file${turn}.ts`, RUN);
    turn += 1;
    const { read, metadata } = await entryOf(server.memory);
    expect(read.record?.state?.summary).toContain('- OTHER');
    expect(read.lastRevision).toBeGreaterThan(revision);
    expect(metadata.project).toBe('apollo');

    // And the next turn sends the adopted summary.
    await server.agent.generate(`Read file${turn}.ts`, RUN);
    const last = scripted.agentPrompts.at(-1)!;
    expect(promptText(last)).toContain('- OTHER');
    expect(lastUserText(last)).toBe(`Read file${turn}.ts`);
  });

  it('reports a corrupt entry under its key once and starts over from the thread, keeping the other keys', async () => {
    const storage = new InMemoryStore();
    const scripted = fileReader();
    const memory = new Memory({ storage, options: { lastMessages: 1000 } });
    await memory.createThread({
      threadId: 't1',
      resourceId: 'u1',
      metadata: { project: 'apollo', compaction: 'oops' },
    });
    const server = agentOver(storage, scripted);
    await turnsUntilCompacted(server.agent, server.events, 0);

    const errors = server.events.filter((event) => event.type === 'store:error');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('Mastra thread \\"t1\\" metadata key \\"compaction\\"');
    const { read, metadata } = await entryOf(server.memory);
    expect(read.record?.state?.summary).toContain('SCRIPTED-SUMMARY');
    expect(metadata.project).toBe('apollo');
  });

  it('survives Mastra saving the thread again when it generates its title after the run', async () => {
    const storage = new LibSQLStore({ id: 'app', url: databaseUrl() });
    // Answers Mastra's title request with a title, and reads files otherwise.
    const scripted = scriptedModel((prompt) => {
      const system = prompt[0]?.role === 'system' ? String(prompt[0].content) : '';
      if (/title/i.test(system)) return { text: 'Reading files' };
      return prompt.at(-1)?.role === 'tool'
        ? { text: 'Done reading.' }
        : { toolCalls: [{ toolName: 'readFile', input: { path: lastUserText(prompt).replace('Read ', '') } }] };
    });
    const processor = new CompactionProcessor({ settings: { ...SMALL_WINDOW, pruneToolOutputs: false } });
    const memory = new Memory({ storage, options: { lastMessages: 1000, generateTitle: true } });
    const agent = new Agent({
      id: 'coder',
      name: 'coder',
      instructions: 'You are a coder.',
      model: scripted.model,
      tools: { readFile },
      memory,
      inputProcessors: [processor],
    });
    await agent.generate('Read file0.ts', RUN);
    // The title is written after the run returns.
    await memory.settled();
    await vi.waitFor(async () => expect((await memory.getThreadById({ threadId: 't1' }))?.title).not.toBe(''));

    const thread = await memory.getThreadById({ threadId: 't1' });
    expect(thread?.title).toBe('Reading files');
    const read = readThreadRecordEntry(thread?.metadata?.compaction, 't1');
    expect(read.record?.usage?.inputTokens).toBeGreaterThan(0);
    expect(thread?.metadata?.project).toBe('apollo');
  });

  it('leaves the metadata alone when a store is given, with a read-only Memory, and without Memory', async () => {
    const storage = new InMemoryStore();
    const store: SessionStore = memoryStore();
    const given = agentOver(storage, fileReader(), { store });
    await turnsUntilCompacted(given.agent, given.events, 0);
    expect((await entryOf(given.memory)).metadata).toEqual({ project: 'apollo' });
    expect((await store.loadRecord('t1'))?.state?.summary).toContain('SCRIPTED-SUMMARY');

    // A read-only Memory: Mastra writes nothing to the thread, and neither does the processor.
    const readOnly = agentOver(new InMemoryStore(), fileReader());
    const readOnlyRun = { memory: { ...RUN.memory, options: { readOnly: true, lastMessages: 1000 } } };
    for (let turn = 0; turn < 3; turn += 1) await readOnly.agent.generate(`Read file${turn}.ts`, readOnlyRun);
    const readOnlyThread = await readOnly.memory.getThreadById({ threadId: 't1' });
    expect(readOnlyThread?.metadata?.compaction).toBeUndefined();
    expect(readOnly.events.filter((event) => event.type === 'store:error')).toEqual([]);

    // No Memory: the conversation is re-sent, and the processor compacts as before.
    const scripted = scriptedModel(() => ({ text: 'Noted.' }));
    const events: CompactionEvent[] = [];
    const processor = new CompactionProcessor({ settings: SMALL_WINDOW, onEvent: (event) => events.push(event) });
    const agent = new Agent({
      id: 'notes',
      name: 'notes',
      instructions: 'Take notes.',
      model: scripted.model,
      inputProcessors: [processor],
    });
    const notes = Array.from({ length: 12 }, (_, index) => [
      { role: 'user' as const, content: `Note ${index}: ${fileText(`n${index}`)}` },
      { role: 'assistant' as const, content: `Noted ${index}.` },
    ]).flat();
    await agent.generate([...notes, { role: 'user' as const, content: 'Which notes?' }]);
    expect(events.some((event) => event.type === 'compaction:end')).toBe(true);
    expect(events.filter((event) => event.type === 'store:error')).toEqual([]);
    expect(promptText(scripted.agentPrompts.at(-1)!)).toContain('SCRIPTED-SUMMARY');
  });
});
