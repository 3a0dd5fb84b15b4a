import { describe, expect, it } from 'vitest';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionRecord, SessionStore } from '../store/session-store.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionSession, HistorySource } from './types.js';

const message = (index: number): Message => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text: `message ${index}: ${'word '.repeat(30)}` }],
});

const messages = (length: number) => Array.from({ length }, (_, index) => message(index));
const ids = (list: readonly Message[]) => list.map((item) => item.id);

/** A source over `list`, with `since` as an adapter says it. */
function source(list: readonly Message[], since?: HistorySource): HistorySource {
  return {
    length: list.length,
    messages: (from) => list.slice(from),
    ...(since ? { since: { source: since, unchanged: Math.min(since.length, list.length) } } : {}),
  };
}

function session(store: SessionStore = memoryStore()): CompactionSession {
  return createCompactionSession({
    sessionId: 's',
    store,
    persistHistory: false,
    tokenCache: createTokenCache(heuristicCounter(), { keyByContent: true }),
    settings: { contextWindow: 1_000_000 },
  });
}

/** A record without its revision (which counts writes, not decisions). */
function comparable(record: SessionRecord | undefined): unknown {
  if (!record) return undefined;
  const { revision: _revision, ...rest } = record;
  return rest;
}

/** The two states a counted prepare starts from: loaded (the call goes counted) or counted already. */
type Start = 'loaded' | 'counted';

/**
 * A session whose next `prepare({ history })` goes counted, not loaded: one call through a
 * source with its usage report (`loaded`: the next call switches), or two (`counted`: held so).
 * Returns it with its store, its last source, the calls made and the history length.
 */
async function start(kind: Start) {
  const store = memoryStore();
  const conversation = session(store);
  const calls = [{ length: 19, inputTokens: 2_000 }];
  let last = source(messages(19));
  await conversation.prepare({ history: last });
  await conversation.recordUsage({ inputTokens: 2_000 });
  if (kind === 'counted') {
    const second = source(messages(20), last);
    const prepared = await conversation.prepare({ history: second });
    expect(prepared.asIs).toBe(true);
    await conversation.recordUsage({ inputTokens: 2_100 });
    calls.push({ length: 20, inputTokens: 2_100 });
    last = second;
  }
  return { conversation, store, last, calls, length: calls.at(-1)!.length };
}

/** The same calls one after another through `prepare({ messages })`: the record the full path stores. */
async function sequentialRecord(calls: { length: number; inputTokens: number }[]): Promise<unknown> {
  const store = memoryStore();
  const full = session(store);
  for (const call of calls) {
    await full.prepare({ messages: messages(call.length) });
    await full.recordUsage({ inputTokens: call.inputTokens });
  }
  return comparable(await store.loadRecord('s'));
}

describe.each<Start>(['loaded', 'counted'])(
  'prepare({ history }) from a %s session, under overlapping calls',
  (kind) => {
    it('takes a usage report that overlaps the next counted prepare without a TypeError, as if run in order', async () => {
      const { conversation, store, last, calls, length } = await start(kind);
      const third = source(messages(length + 1), last);
      await conversation.prepare({ history: third });
      const report = conversation.recordUsage({ inputTokens: 2_200 }); // not awaited
      const fourth = source(messages(length + 3), third);
      const next = conversation.prepare({ history: fourth });
      const lastReport = conversation.recordUsage({ inputTokens: 2_400 });
      await Promise.all([report, next, lastReport]);
      expect((await next).asIs).toBe(true);
      expect(ids(await conversation.history())).toEqual(ids(messages(length + 3)));
      const expected = await sequentialRecord([
        ...calls,
        { length: length + 1, inputTokens: 2_200 },
        { length: length + 3, inputTokens: 2_400 },
      ]);
      expect(comparable(await store.loadRecord('s'))).toEqual(expected);
    });

    it('keeps every message of two concurrent prepare({ history }) calls, the second two messages longer', async () => {
      const { conversation, last, length } = await start(kind);
      const a = source(messages(length + 1), last);
      const b = source(messages(length + 3), a);
      const [first, second] = await Promise.all([
        conversation.prepare({ history: a }),
        conversation.prepare({ history: b }),
      ]);
      expect(ids(first.messages)).toEqual(ids(messages(length + 1)));
      expect(ids(second.messages)).toEqual(ids(messages(length + 3)));
      expect(ids(await conversation.history())).toEqual(ids(messages(length + 3)));
      expect(await conversation.context()).toHaveLength(length + 3);
    });

    it('compacts the whole history when compact() is issued while a counted prepare is in flight', async () => {
      const { conversation, last, length } = await start(kind);
      const prepared = conversation.prepare({ history: source(messages(length + 1), last) });
      const compaction = conversation.compact({ keepRecentTokens: 200 });
      expect((await prepared).asIs).toBe(true);
      const result = await compaction;
      expect(result).toBeDefined();
      expect(result?.messagesSummarized).toBeGreaterThan(0);
      expect(ids(await conversation.history())).toEqual(ids(messages(length + 1)));
      const state = await conversation.state();
      expect(ids(messages(length + 1))).toContain(state?.firstKeptMessageId);
    });

    it('recovers from an overflow issued while a counted prepare is in flight, over the whole history', async () => {
      const { conversation, last, length } = await start(kind);
      const prepared = conversation.prepare({ history: source(messages(length + 1), last) });
      const overflow = new Error('prompt is too long: 1200000 tokens > 1000000 maximum');
      const recovery = conversation.recoverFromOverflow(overflow);
      expect((await prepared).asIs).toBe(true);
      expect(await recovery).toBe(true);
      expect(ids(await conversation.history())).toEqual(ids(messages(length + 1)));
      expect((await conversation.state())?.version).toBe(1);
    });

    it('keeps a message appended while a counted prepare is in flight, after the call it was issued after', async () => {
      const { conversation, last, length } = await start(kind);
      const prepared = conversation.prepare({ history: source(messages(length + 1), last) });
      const appended = conversation.append(message(length + 1));
      const call = await prepared;
      await appended;
      // The call came first: its context is the messages it was given, sent as they are.
      expect(call.asIs).toBe(true);
      expect(ids(call.messages)).toEqual(ids(messages(length + 1)));
      expect(ids(await conversation.history())).toEqual(ids(messages(length + 2)));
      expect(ids(await conversation.context())).toEqual(ids(messages(length + 2)));
    });

    it('answers history(), context() and stats() issued between overlapping counted calls as run in order', async () => {
      const { conversation, last, length } = await start(kind);
      const a = source(messages(length + 1), last);
      const b = source(messages(length + 4), a);
      const prepareA = conversation.prepare({ history: a });
      const reportA = conversation.recordUsage({ inputTokens: 2_200 });
      const historyAfterA = conversation.history();
      const statsAfterA = conversation.stats();
      const prepareB = conversation.prepare({ history: b });
      const contextAfterB = conversation.context();
      const reportB = conversation.recordUsage({ inputTokens: 2_500 });
      const statsAfterB = conversation.stats();
      await Promise.all([prepareA, reportA, prepareB, reportB]);
      expect(ids(await historyAfterA)).toEqual(ids(messages(length + 1)));
      expect((await statsAfterA).historyMessages).toBe(length + 1);
      expect((await statsAfterA).contextTokens).toBe(2_200);
      expect(ids(await contextAfterB)).toEqual(ids(messages(length + 4)));
      expect((await statsAfterB).contextTokens).toBe(2_500);
    });

    it('clears between overlapping counted calls as run in order: the next source is a new conversation', async () => {
      const { conversation, store, last, length } = await start(kind);
      const prepared = conversation.prepare({ history: source(messages(length + 1), last) });
      const report = conversation.recordUsage({ inputTokens: 2_200 });
      const cleared = conversation.clear();
      const fresh = [message(100), message(101)];
      const after = conversation.prepare({ history: source(fresh) });
      await Promise.all([prepared, report, cleared]);
      expect(ids((await after).messages)).toEqual(ids(fresh));
      expect(ids(await conversation.history())).toEqual(ids(fresh));
      expect((await store.loadRecord('s'))?.usage).toBeUndefined();
    });

    it('reads a call`s tokens as that call`s, after later calls and reports, as the full path does', async () => {
      const { conversation, last, calls, length } = await start(kind);
      const a = source(messages(length + 1), last);
      const call = await conversation.prepare({ history: a });
      void conversation.recordUsage({ inputTokens: 2_200 });
      await conversation.prepare({ history: source(messages(length + 6), a) });
      await conversation.recordUsage({ inputTokens: 2_900 });
      const full = session();
      for (const earlier of calls) {
        await full.prepare({ messages: messages(earlier.length) });
        await full.recordUsage({ inputTokens: earlier.inputTokens });
      }
      const fullCall = await full.prepare({ messages: messages(length + 1) });
      await full.recordUsage({ inputTokens: 2_200 });
      await full.prepare({ messages: messages(length + 6) });
      await full.recordUsage({ inputTokens: 2_900 });
      expect(call.tokens).toBe(fullCall.tokens);
      expect(call.tokens).toBeLessThan(2_900);
    });
  },
);

describe('prepare({ history }) when the store refused a usage report', () => {
  it('saves it again once in a call that starts counted and goes the full way, as prepare({ messages }) does', async () => {
    const big = (index: number): Message => ({
      id: `m${index}`,
      role: 'user',
      parts: [{ type: 'text', text: `message ${index}: ${'word '.repeat(600)}` }],
    });
    const run = async (path: 'messages' | 'history') => {
      const inner = memoryStore();
      // The third and fourth usage saves fail: the report of the third call, then its first retry.
      let saves = 0;
      const store = faultyStore(inner, (operation) => operation === 'saveRecord' && [2, 3].includes(saves++));
      const conversation = createCompactionSession({
        sessionId: 's',
        store,
        persistHistory: false,
        tokenCache: createTokenCache(heuristicCounter(), { keyByContent: true }),
        settings: { contextWindow: 8_000, keepRecentTokens: 2_000 },
      });
      let last: HistorySource | undefined;
      const call = (list: Message[]) => {
        last = source(list, last);
        return conversation.prepare(path === 'messages' ? { messages: list } : { history: last });
      };
      await call(messages(2));
      await conversation.recordUsage({ inputTokens: 500 });
      await call(messages(3));
      await conversation.recordUsage({ inputTokens: 600 });
      await call(messages(4));
      await conversation.recordUsage({ inputTokens: 700 }); // refused: saved again at the next call
      // A large message: the next call is not far below the trigger, so a counted call goes the full way.
      const prepared = await call([...messages(4), big(4)]);
      return { tokens: prepared.tokens, saves: store.calls.filter((operation) => operation === 'saveRecord').length };
    };
    const full = await run('messages');
    const viaSource = await run('history');
    expect(viaSource).toEqual(full);
  });
});
