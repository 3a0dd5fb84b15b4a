import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import { SEARCHABLE_HISTORY_NOTE } from '../compaction/build-context.js';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { structuredSummarizer } from '../summarize/structured/structured-summarizer.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createContextTools } from './context-tools.js';
import { InvalidToolInputError } from './invalid-tool-input-error.js';

const settings = { contextWindow: 4_000, reserveTokens: 500, keepRecentTokens: 600, trigger: 0.5, minMessages: 4 };

function longConversation(turns: number): Message[] {
  const c = conversation();
  return Array.from({ length: turns }, (_, turn) => [
    c.user(`request ${turn}: ${words(40)}`),
    ...c.toolStep([
      {
        name: 'read',
        input: { path: `src/file${turn}.ts` },
        output: `${words(100)} ${turn === 1 ? 'the secret port is 48213' : ''} ${words(100)}`,
      },
    ]),
    c.assistant(`done ${turn}: ${words(40)}`),
  ]).flat();
}

async function compactedSession() {
  const session = createCompactionSession({
    sessionId: 'tools',
    settings,
    counter: heuristicCounter(),
    summarizer: structuredSummarizer({ maxTokens: 200 }),
  });
  await session.append(longConversation(12));
  const result = await session.compact();
  expect(result).toBeDefined();
  return session;
}

describe('createContextTools', () => {
  it('search_history finds a value that exists only in a summarized tool output; read_message returns it whole', async () => {
    const session = await compactedSession();
    const context = JSON.stringify(await session.context());
    expect(context).not.toContain('48213');
    const tools = createContextTools(session);

    const found = await tools.search_history.execute({ query: 'secret port' });
    expect(found.searchedMessages).toBeGreaterThan(0);
    expect(found.hits[0]!.role).toBe('tool');
    expect(found.hits[0]!.snippet).toContain('48213');

    const read = await tools.read_message.execute({ id: found.hits[0]!.id });
    expect(read).toMatchObject({ found: true, role: 'tool', summarized: true });
    expect(read.found && read.text).toContain('the secret port is 48213');
  });

  it('searches only the summarized part: messages still in context are not hits', async () => {
    const session = await compactedSession();
    const tools = createContextTools(session);
    const history = await session.history();
    const state = await session.state();
    const firstKept = history.findIndex((message) => message.id === state!.firstKeptMessageId);
    const lastRequest = history.findLast((message) => message.role === 'user')!;
    expect(history.indexOf(lastRequest)).toBeGreaterThanOrEqual(firstKept);
    const { hits } = await tools.search_history.execute({ query: 'request 11', limit: 20 });
    expect(hits.every((hit) => hit.index < firstKept)).toBe(true);
  });

  it('also searches tool outputs cleared from the context (pruned), and says so when reading them', async () => {
    const c = conversation();
    const turns = Array.from({ length: 7 }, (_, turn) => [
      c.user(`request ${turn}: ${words(10)}`),
      ...c.toolStep([
        {
          name: 'read',
          input: { path: `f${turn}` },
          output: `${words(150)} ${turn === 1 ? 'the secret port is 48213' : ''} ${words(150)}`,
        },
      ]),
      c.assistant(`done ${words(10)}`),
    ]).flat();
    const session = createCompactionSession({
      sessionId: 'pruned',
      settings: { ...settings, pruneToolOutputs: true },
      counter: heuristicCounter(),
    });
    await session.append(turns);
    const { compaction } = await session.prepare();
    expect(compaction?.strategy).toBe('prune');
    expect(JSON.stringify(await session.context())).not.toContain('48213');
    const tools = createContextTools(session);
    const { hits } = await tools.search_history.execute({ query: 'secret port' });
    expect(hits[0]!.snippet).toContain('48213');
    const read = await tools.read_message.execute({ id: hits[0]!.id });
    expect(read.found && (read.summarized || read.outputCleared)).toBe(true);
  });

  it('with historyTools, the summary closes by telling the model the summarized messages can be searched', async () => {
    const make = (historyTools: boolean) =>
      createCompactionSession({
        sessionId: `note-${historyTools}`,
        settings: { ...settings, historyTools },
        counter: heuristicCounter(),
        summarizer: structuredSummarizer({ maxTokens: 200 }),
      });
    for (const historyTools of [true, false]) {
      const session = make(historyTools);
      await session.append(longConversation(12));
      const result = await session.compact();
      const summary = (await session.context()).find((message) => message.id.startsWith('compaction-summary'))!;
      const text = JSON.stringify(summary.parts);
      expect(text.includes(SEARCHABLE_HISTORY_NOTE)).toBe(historyTools);
      // The figures count the context the model gets, note included.
      expect(result!.tokensAfter).toBe((await session.stats()).contextTokens);
    }
  });

  it('finds nothing before the first compaction, and reports an unknown id', async () => {
    const session = createCompactionSession({ sessionId: 'fresh', counter: heuristicCounter() });
    await session.append(longConversation(2));
    const tools = createContextTools(session);
    expect(await tools.search_history.execute({ query: 'secret port' })).toEqual({ searchedMessages: 0, hits: [] });
    expect(await tools.read_message.execute({ id: 'nope' })).toEqual({
      found: false,
      id: 'nope',
      error: 'no message with id "nope" in this conversation',
    });
  });

  it('context_stats matches session.stats()', async () => {
    const session = await compactedSession();
    const stats = await session.stats();
    const output = await createContextTools(session).context_stats.execute({});
    expect(output).toEqual(stats);
  });

  it('compact_context compacts at the next prepare(), with the focus, not before', async () => {
    const session = createCompactionSession({
      sessionId: 'request',
      settings,
      counter: heuristicCounter(),
      summarizer: structuredSummarizer({ maxTokens: 300 }),
    });
    await session.append(longConversation(5)); // under the trigger: nothing compacts on its own
    expect((await session.prepare()).compaction).toBeUndefined();
    const tools = createContextTools(() => session);
    expect(await tools.compact_context.execute({ focus: 'the port numbers' })).toMatchObject({
      requested: true,
      focus: 'the port numbers',
    });
    expect(await session.state()).toBeUndefined();
    const { compaction, messages } = await session.prepare();
    expect(compaction).toMatchObject({ trigger: 'manual' });
    expect(JSON.stringify(messages[0])).toContain('the port numbers');
    expect((await session.prepare()).compaction).toBeUndefined(); // once
  });

  it('reads a null argument as not given, as strict tool schemas send an optional one; a required one stays required', async () => {
    const session = await compactedSession();
    const tools = createContextTools(session);
    expect(await tools.compact_context.execute({ focus: null } as never)).toMatchObject({
      requested: true,
      focus: null,
    });
    const limited = await tools.search_history.execute({ query: 'port', limit: null } as never);
    expect(limited).toEqual(await tools.search_history.execute({ query: 'port' }));
    await expect(tools.search_history.execute({ query: null } as never)).rejects.toThrow(InvalidToolInputError);
    await expect(tools.read_message.execute({ id: null } as never)).rejects.toThrow(InvalidToolInputError);
  });

  it('rejects arguments a tool does not take with a typed error the model can read', async () => {
    const tools = createContextTools(await compactedSession());
    await expect(tools.search_history.execute({ query: '' })).rejects.toThrow(InvalidToolInputError);
    await expect(tools.search_history.execute({ query: 'x', limit: -1 })).rejects.toThrow(/"limit" must be/);
    await expect(tools.search_history.execute({ q: 'x' })).rejects.toThrow(
      /unknown argument "q"; it takes query, limit/,
    );
    await expect(tools.read_message.execute('m1')).rejects.toThrow(/input must be an object/);
    await expect(tools.compact_context.execute({ focus: 3 })).rejects.toThrow(/"focus" must be a string/);
    expect(() =>
      createContextTools(
        () => {
          throw new Error('unused');
        },
        { maxToolOutputChars: 0 },
      ),
    ).toThrow(/maxToolOutputChars/);
  });
});
