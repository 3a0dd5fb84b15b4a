import {
  heuristicCounter,
  type Message,
  memoryStore,
  processCountedConversationMemory,
  type Summarizer,
  structuredSummarizer,
} from '@compaction/core';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import { InMemoryStore } from '@mastra/core/storage';
import { Memory } from '@mastra/memory';
import { describe, expect, it } from 'vitest';
import { coderAgent, lastUserText, promptText } from './__fixtures__/agent-fixtures.js';
import { scriptedModel } from './__fixtures__/scripted-model.js';
import { CompactionProcessor } from './compaction-processor.js';

const memory = { thread: 't-recalled', resource: 'u1' };

/** Every text of core messages, joined. */
const textOf = (messages: readonly Message[]) =>
  messages.flatMap((message) => message.parts.map((part) => (part.type === 'text' ? part.text : ''))).join('\n');

/**
 * A thread of `Memory` runs (each recalls the thread from Mastra's storage as new objects) held
 * counted by the processor's session, a summarizer that records what it is asked to summarize,
 * and a way to edit a stored message as an app may (under its id).
 */
async function recalledThread() {
  const storage = new InMemoryStore();
  const summarized: string[] = [];
  const structured = structuredSummarizer();
  const summarizer: Summarizer = {
    name: 'recording',
    summarize(request) {
      summarized.push(textOf(request.messages));
      return structured.summarize(request);
    },
  };
  const processor = new CompactionProcessor({
    counter: heuristicCounter(),
    summarizer,
    store: memoryStore(),
    settings: { contextWindow: 1_000_000, keepRecentTokens: 20, minMessages: 2 },
  });
  const scripted = scriptedModel((prompt) => ({ text: `Reply to ${lastUserText(prompt).split(':')[0]}` }));
  const agent = coderAgent({
    model: scripted.model,
    memory: new Memory({ storage, options: { lastMessages: 1000 } }),
    inputProcessors: [processor],
  });
  for (const note of ['Note one: apple', 'Note two', 'Note three', 'Note four'])
    await agent.generate(`${note} ${'words '.repeat(60)}`, { memory });
  const domain = (await storage.getStore('memory'))!;
  const stored = async () => (await domain.listMessages({ threadId: memory.thread, perPage: false })).messages;
  return {
    agent,
    scripted,
    summarized,
    session: processor.session(memory.thread)!,
    stored,
    /** Stores the message whose text has `was` with `text` in its place, under the same id. */
    async edit(was: string, text: string) {
      const message = (await stored()).find((candidate) =>
        candidate.content.parts.some((part) => part.type === 'text' && part.text.includes(was)),
      )!;
      const edited: MastraDBMessage = structuredClone(message);
      for (const part of edited.content.parts) if (part.type === 'text') part.text = part.text.replace(was, text);
      if (typeof edited.content.content === 'string')
        edited.content.content = edited.content.content.replace(was, text);
      await domain.saveMessages({ messages: [edited] });
      return message.id;
    },
  };
}

describe('CompactionProcessor over a thread Memory recalls as new objects', () => {
  it('sends a stored message edited under its id to the same size, and core reads it when it next loads (history)', async () => {
    const thread = await recalledThread();
    expect(processCountedConversationMemory().size).toBeGreaterThan(0); // held counted, not loaded
    const id = await thread.edit('Note one: apple', 'Note one: grape');
    const stored = (await thread.stored()).find((message) => message.id === id)!;
    expect(stored.content.parts.some((part) => part.type === 'text' && part.text.includes('grape'))).toBe(true);

    await thread.agent.generate('Note five', { memory });
    // The model is sent Mastra's own (recalled) messages: the edit.
    const sent = promptText(thread.scripted.agentPrompts.at(-1)!);
    expect(sent).toContain('Note one: grape');
    expect(sent).not.toContain('apple');
    expect(processCountedConversationMemory().size).toBeGreaterThan(0);

    // What core reads when it loads is a fresh conversion of the recalled objects.
    const history = textOf(await thread.session.history());
    expect(history).toContain('Note one: grape');
    expect(history).not.toContain('apple');
  });

  it('summarizes a stored message edited under its id to the same size as edited, at the next compaction', async () => {
    const thread = await recalledThread();
    await thread.edit('Note one: apple', 'Note one: grape');
    await thread.agent.generate('Note five', { memory });
    expect(processCountedConversationMemory().size).toBeGreaterThan(0);

    const result = await thread.session.compact({ keepRecentTokens: 1 });
    expect(result?.messagesSummarized).toBeGreaterThan(0);
    expect(thread.summarized.join('\n')).toContain('Note one: grape');
    expect(thread.summarized.join('\n')).not.toContain('apple');
  });

  it('converts again at once a stored message edited to another size, and keeps every message', async () => {
    const thread = await recalledThread();
    await thread.edit('Note one: apple', 'Note one: a pineapple');
    await thread.agent.generate('Note five', { memory });
    expect(promptText(thread.scripted.agentPrompts.at(-1)!)).toContain('Note one: a pineapple');

    const history = await thread.session.history();
    expect(textOf(history)).toContain('Note one: a pineapple');
    expect(textOf(history)).not.toContain('Note one: apple');
    // Nothing lost: every stored message but the last answer (saved after the run's last model call).
    const stored = await thread.stored();
    expect(history.map((message) => message.id)).toEqual(stored.slice(0, -1).map((message) => message.id));
  });
});
