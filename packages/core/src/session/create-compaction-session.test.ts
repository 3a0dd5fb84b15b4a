import { describe, expect, it } from 'vitest';
import { conversation, longConversation, recordingSummarizer, words } from '../../test/builders.js';
import { memoryStore } from '../store/memory-store.js';
import type { Summarizer } from '../summarize/types.js';
import { countMessageTokens } from '../tokens/count-message-tokens.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionEvent } from './types.js';

const settings = { contextWindow: 4_000, reserveTokens: 500, keepRecentTokens: 600, trigger: 0.5, minMessages: 4 };
const counter = heuristicCounter();

describe('createCompactionSession', () => {
  it('throws at construction when a setting is invalid, naming it', () => {
    expect(() => createCompactionSession({ sessionId: 's', settings: { keepRecentTokens: -1 } })).toThrow(
      /setting "keepRecentTokens"/,
    );
    expect(() =>
      createCompactionSession({
        sessionId: 's',
        settings: { contextWindow: 1000, reserveTokens: 100, keepRecentTokens: 5000 },
      }),
    ).toThrow(/keepRecentTokens/);
  });

  it('does not compact a small session', async () => {
    const summarizer = recordingSummarizer();
    const session = createCompactionSession({ sessionId: 's', settings, counter, summarizer });
    await session.append(longConversation(1));
    const prepared = await session.prepare();
    expect(prepared.compaction).toBeUndefined();
    expect(summarizer.requests).toHaveLength(0);
  });

  it('auto-compacts over the trigger and keeps the context bounded, turn after turn', async () => {
    const summarizer = recordingSummarizer();
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({
      sessionId: 's',
      settings,
      counter,
      summarizer,
      onEvent: (e) => events.push(e),
    });
    const messages = longConversation(30);
    const stats = [];
    for (const message of messages) {
      await session.append(message);
      const prepared = await session.prepare();
      stats.push(prepared.tokens);
    }
    const state = await session.state();
    expect(state?.version).toBeGreaterThan(1);
    expect(Math.max(...stats.slice(-20))).toBeLessThanOrEqual(2_000 + 400);
    const ends = events.filter((e) => e.type === 'compaction:end');
    expect(ends.length).toBe(state?.version);
    for (const end of ends) if (end.type === 'compaction:end') expect(end.tokensAfter).toBeLessThan(end.tokensBefore);
    // The second and later compactions update the previous summary with only the new messages.
    const updates = summarizer.requests.filter((r) => r.kind === 'history' && r.previousSummary);
    expect(updates.length).toBeGreaterThan(0);
    expect(await session.history()).toEqual(messages);
  });

  it('falls back to the structured summary when the summarizer fails, and never stores the error', async () => {
    const failing: Summarizer = {
      name: 'llm',
      summarize: async () => {
        throw new Error('provider said: 500 internal error');
      },
    };
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({
      sessionId: 's',
      settings: { ...settings, pruneToolOutputs: false },
      counter,
      summarizer: failing,
      onEvent: (e) => events.push(e),
    });
    await session.append(longConversation(12));
    const prepared = await session.prepare();
    expect(prepared.compaction?.strategy).toBe('structured');
    expect(prepared.compaction?.fallbacks).toEqual([{ strategy: 'llm', error: 'provider said: 500 internal error' }]);
    expect((await session.state())?.summary).not.toContain('500 internal error');
  });

  it('clears old tool outputs first and skips summarizing when that is enough', async () => {
    const summarizer = recordingSummarizer();
    const wide = { contextWindow: 20_000, reserveTokens: 1_000, keepRecentTokens: 1_000, trigger: 0.5 };
    const session = createCompactionSession({ sessionId: 's', settings: wide, counter, summarizer });
    const c = conversation();
    for (let turn = 0; turn < 16; turn += 1) {
      await session.append([
        c.user(`request ${turn}`),
        ...c.toolStep([{ name: 'read', input: { path: `src/${turn}.ts` }, output: words(600) }]),
        c.assistant(`done ${turn}`),
      ]);
    }
    const prepared = await session.prepare();
    expect(prepared.compaction?.strategy).toBe('prune');
    expect(prepared.tokens).toBeLessThanOrEqual(2_500);
    expect(summarizer.requests).toHaveLength(0);
    const state = await session.state();
    expect(state?.prunedToolCallIds.length).toBeGreaterThan(0);
    // The recent range keeps its outputs.
    const last = prepared.messages.filter((m) => m.role === 'tool').at(-1);
    expect(JSON.stringify(last)).not.toContain('Output cleared');
    expect(JSON.stringify(prepared.messages)).toContain('Output cleared');
  });

  it('summarizes when clearing tool outputs would not bring the context down far enough', async () => {
    const summarizer = recordingSummarizer();
    const session = createCompactionSession({ sessionId: 's', settings, counter, summarizer });
    await session.append(longConversation(12));
    const prepared = await session.prepare();
    expect(prepared.compaction?.strategy).toBe('test');
    expect(summarizer.requests.length).toBeGreaterThan(0);
  });

  it('manual compact with focus instructions reaches the summarizer', async () => {
    const summarizer = recordingSummarizer();
    const session = createCompactionSession({
      sessionId: 's',
      settings: { ...settings, trigger: 0 },
      counter,
      summarizer,
    });
    await session.append(longConversation(6));
    const result = await session.compact({ instructions: 'focus on the parser bug' });
    expect(result?.trigger).toBe('manual');
    expect(summarizer.requests[0]?.instructions).toBe('focus on the parser bug');
  });

  it('recovers from an overflow error once, and refuses a second time on the same context', async () => {
    const session = createCompactionSession({ sessionId: 's', settings: { ...settings, trigger: 0 }, counter });
    await session.append(longConversation(6));
    const overflow = Object.assign(new Error('prompt is too long: 250000 tokens > 200000 maximum'), {
      statusCode: 400,
    });
    expect(await session.recoverFromOverflow(new Error('rate limit exceeded'))).toBe(false);
    expect(await session.recoverFromOverflow(overflow)).toBe(true);
    expect(await session.recoverFromOverflow(overflow)).toBe(false);
  });

  it('reloads from its store with exactly the same context', async () => {
    const store = memoryStore();
    const first = createCompactionSession({ sessionId: 'x', settings, counter, store });
    for (const message of longConversation(12)) {
      await first.append(message);
      await first.prepare();
    }
    const second = createCompactionSession({ sessionId: 'x', settings, counter, store });
    expect(await second.context()).toEqual(await first.context());
    expect((await second.state())?.version).toBeGreaterThan(0);
  });

  it('syncs a re-sent history: appends new messages and starts a new branch on divergence', async () => {
    const session = createCompactionSession({ sessionId: 's', settings, counter, persistHistory: false });
    const messages = longConversation(10);
    await session.prepare({ messages });
    expect((await session.state())?.version).toBe(1);
    await session.prepare({ messages: [...messages, ...longConversation(1).map((m) => ({ ...m, id: `n-${m.id}` }))] });
    expect((await session.history()).length).toBe(messages.length + 4);
    // An edited first message: the state summarizes another branch and is dropped.
    const edited = [{ ...messages[0]!, id: 'edited' }, ...messages.slice(1, 3)];
    const prepared = await session.prepare({ messages: edited });
    expect(prepared.messages.map((m) => m.id)).toEqual(edited.map((m) => m.id));
    expect(await session.state()).toBeUndefined();
  });

  it('waits for a running compaction (single flight) and keeps messages appended meanwhile', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Summarizer = {
      name: 'slow',
      summarize: async (request) => {
        await gate;
        return `summary of ${request.messages.length}`;
      },
    };
    const session = createCompactionSession({ sessionId: 's', settings, counter, summarizer: slow });
    await session.append(longConversation(10));
    const first = session.prepare();
    const c = conversation();
    await session.append({ ...c.user('late message'), id: 'late' });
    const second = session.prepare();
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.compaction).toBeDefined();
    expect(b.compaction).toBeUndefined();
    expect(b.messages.at(-1)?.id).toBe('late');
  });

  it('stops and reports instead of looping when compaction cannot help', async () => {
    const c = conversation();
    // One huge user message: nothing older to summarize.
    const session = createCompactionSession({ sessionId: 's', settings: { ...settings, minMessages: 1 }, counter });
    const events: CompactionEvent[] = [];
    session.on((e) => events.push(e));
    await session.append([c.user(words(3_000))]);
    await session.prepare();
    await session.prepare();
    await session.prepare();
    const starts = events.filter((e) => e.type === 'compaction:start').length;
    expect(starts).toBeLessThanOrEqual(2);
    expect(events.some((e) => e.type === 'compaction:error')).toBe(true);
  });

  it('uses the provider-reported input tokens plus counted new messages (hybrid)', async () => {
    const session = createCompactionSession({ sessionId: 's', settings: { ...settings, trigger: 0 }, counter });
    const c = conversation();
    await session.append([c.user('hello')]);
    await session.prepare();
    await session.recordUsage({ inputTokens: 1_000 });
    await session.append([c.assistant(words(10))]);
    const stats = await session.stats();
    expect(stats.contextTokens).toBeGreaterThanOrEqual(1_000 + 10);
    expect(stats.contextTokens).toBeLessThan(1_100);
  });

  it('adopts a newer state another process saved to a shared store instead of compacting again', async () => {
    const store = memoryStore();
    const messages = longConversation(12);
    const summarizerA = recordingSummarizer();
    const summarizerB = recordingSummarizer();
    const noPrune = { ...settings, pruneToolOutputs: false };
    const a = createCompactionSession({
      sessionId: 'shared',
      store,
      settings: noPrune,
      counter,
      summarizer: summarizerA,
      persistHistory: false,
    });
    const b = createCompactionSession({
      sessionId: 'shared',
      store,
      settings: noPrune,
      counter,
      summarizer: summarizerB,
      persistHistory: false,
    });
    await a.prepare({ messages: messages.slice(0, 4) }); // a loads before b compacts
    const fromB = await b.prepare({ messages });
    expect(fromB.compaction).toBeDefined();
    const fromA = await a.prepare({ messages });
    expect(fromA.compaction).toBeUndefined();
    expect(summarizerA.requests).toHaveLength(0);
    expect(fromA.messages).toEqual(fromB.messages);
  });

  it('learns the provider-to-counter ratio from growth between calls and keeps the budget in provider tokens', async () => {
    const session = createCompactionSession({
      sessionId: 's',
      settings: {
        contextWindow: 100_000,
        reserveTokens: 1_000,
        keepRecentTokens: 2_000,
        trigger: 0,
        pruneToolOutputs: false,
      },
      counter,
    });
    const messages = longConversation(20);
    // The provider counts twice what our counter does, plus a fixed 5,000 for tool definitions.
    for (const [index, message] of messages.entries()) {
      await session.append(message);
      if (index % 8 !== 7) continue;
      const { messages: context } = await session.prepare();
      const counted = context.reduce((sum, m) => sum + countMessageTokens(m, counter), 0);
      await session.recordUsage({ inputTokens: 5_000 + 2 * counted });
    }
    const stats = await session.stats();
    const counted = messages.reduce((sum, m) => sum + countMessageTokens(m, counter), 0);
    expect(stats.contextTokens).toBeGreaterThan(5_000 + 2 * counted - 600);
    const result = await session.compact();
    const history = await session.history();
    const firstKept = history.findIndex((m) => m.id === result?.state.firstKeptMessageId);
    const kept = history.slice(firstKept).reduce((sum, m) => sum + countMessageTokens(m, counter), 0);
    // 2,000 provider tokens ≈ 1,000 of ours: the kept range is about half the setting.
    expect(kept).toBeGreaterThanOrEqual(1_000);
    expect(kept).toBeLessThan(1_700);
  });

  it('applies recorded usage only to the history it was reported for, not to one of the same length', async () => {
    const store = memoryStore();
    const c = conversation();
    const first = [c.user('short question'), c.assistant('short answer')];
    const other = [c.user(words(300)), c.assistant(words(300))];
    const a = createCompactionSession({ sessionId: 'k', store, counter, settings, persistHistory: false });
    await a.prepare({ messages: first });
    await a.recordUsage({ inputTokens: 50 });
    const b = createCompactionSession({ sessionId: 'k', store, counter, settings, persistHistory: false });
    const prepared = await b.prepare({ messages: other });
    expect(prepared.tokens).toBeGreaterThan(600);
  });

  it('skips exact counting before a call far below the trigger, and counts when it matters', async () => {
    const counted: string[] = [];
    const counting = {
      name: 'counting',
      countText: (text: string) => {
        counted.push(text);
        return counter.countText(text);
      },
    };
    const session = createCompactionSession({
      sessionId: 's',
      counter: counting,
      settings: { contextWindow: 100_000, reserveTokens: 1_000, keepRecentTokens: 2_000, trigger: 0.8 },
    });
    const c = conversation();
    await session.append(c.user('first question'));
    await session.prepare();
    await session.recordUsage({ inputTokens: 1_000 });
    counted.length = 0;
    await session.append(c.assistant('an answer'));
    await session.append(c.user('a second question'));
    const prepared = await session.prepare();
    expect(counted).toEqual([]); // far below the trigger: nothing counted before the call
    expect(prepared.tokens).toBeGreaterThan(1_000); // reading the figure counts exactly
    expect(counted).toContain('a second question');
    counted.length = 0;
    await session.recordUsage({ inputTokens: 1_030 });
    // Near the trigger the exact path runs before the call.
    await session.append(c.user(words(70_000)));
    counted.length = 0;
    const near = await session.prepare();
    expect(counted.length).toBeGreaterThan(0);
    expect(near.compaction).toBeUndefined();
  });

  it('clear() forgets history and state', async () => {
    const store = memoryStore();
    const session = createCompactionSession({ sessionId: 's', settings, counter, store });
    await session.append(longConversation(10));
    await session.prepare();
    await session.clear();
    expect(await session.history()).toEqual([]);
    expect(await session.state()).toBeUndefined();
    expect(await store.loadRecord('s')).toBeUndefined();
  });

  it('clear() starts a new conversation: context() and prepare() never show the cleared messages', async () => {
    const session = createCompactionSession({ sessionId: 's', settings, counter });
    const c = conversation();
    const [u1, a1, u2, a2] = [c.user('first'), c.assistant('one'), c.user('second'), c.assistant('two')];
    await session.append([u1!, a1!]);
    expect((await session.context()).map((m) => m.id)).toEqual([u1!.id, a1!.id]);
    await session.clear();
    await session.append([u2!, a2!]);
    expect((await session.context()).map((m) => m.id)).toEqual([u2!.id, a2!.id]);
    expect((await session.prepare()).messages.map((m) => m.id)).toEqual([u2!.id, a2!.id]);
    // The same length as before the clear must not revive the old context either.
    await session.clear();
    await session.append([u1!, a1!]);
    expect((await session.prepare()).messages.map((m) => m.id)).toEqual([u1!.id, a1!.id]);
  });
});
