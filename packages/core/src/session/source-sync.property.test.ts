import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { comparable } from './__fixtures__/comparable-record.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionSession, HistorySource, PreparedContext } from './types.js';

/** A caller's history as a source: what an adapter does, its `since` found by identity with the last list. */
function arraySource(list: readonly Message[], previous: (HistorySource & { list: readonly Message[] }) | undefined) {
  let unchanged = 0;
  if (previous) {
    const shorter = Math.min(previous.list.length, list.length);
    while (unchanged < shorter && previous.list[unchanged] === list[unchanged]) unchanged += 1;
  }
  const source: HistorySource & { list: readonly Message[]; reads: number[] } = {
    list,
    reads: [],
    length: list.length,
    messages(from) {
      source.reads.push(from);
      return list.slice(from);
    },
    ...(previous ? { since: { source: previous, unchanged } } : {}),
  };
  return source;
}

type Op =
  | { kind: 'add'; shape: 'user' | 'assistant' | 'pair' | 'call' | 'result'; size: number }
  | { kind: 'edit-same-id' | 'edit-new-id' | 'remove' | 'insert'; at: number }
  | { kind: 'evict' | 'request' | 'skip-usage' | 'read-history' };

const opArbitrary = (edits: readonly ('edit-same-id' | 'edit-new-id' | 'remove' | 'insert')[]): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        shape: fc.constantFrom('user', 'assistant', 'pair', 'call', 'result'),
        size: fc.integer({ min: 1, max: 120 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constantFrom(...edits),
        at: fc.nat(),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('evict', 'request', 'skip-usage', 'read-history') }) },
  );

const text = (id: string, size: number, salt = '') => `${id}${salt} ${'lorem ipsum dolor '.repeat(size)}`;

type Pair = { full: CompactionSession; source: CompactionSession };

function sessions(fullStore: SessionStore, sourceStore: SessionStore, window: number): Pair {
  const make = (store: SessionStore) =>
    createCompactionSession({
      sessionId: 'conversation',
      store,
      persistHistory: false,
      tokenCache: createTokenCache(heuristicCounter(), { keyByContent: true }),
      settings: { contextWindow: window, keepRecentTokens: Math.floor(window / 4) },
    });
  return { full: make(fullStore), source: make(sourceStore) };
}

/**
 * Runs one generated conversation through two sessions: one given the whole converted
 * history every call (`prepare({ messages })`, today's full path), one given it as a
 * source (`prepare({ history })`, which holds it counted, not loaded, when it can), with
 * the same usage reports, evictions (both sessions made again over their stores) and
 * manual requests. Call by call, both decide the same: the same context, tokens and
 * compaction, and the same record in the store.
 */
async function run(ops: Op[], window: number): Promise<{ counted: number; calls: number }> {
  const fullStore = memoryStore();
  const sourceStore = memoryStore();
  let pair = sessions(fullStore, sourceStore, window);
  let list: Message[] = [];
  let previous: ReturnType<typeof arraySource> | undefined;
  let next = 0;
  let open: string | undefined;
  let skipUsage = false;
  /**
   * Set once an old message got new content under its id: the full path does not see that
   * (`planSync` compares ids) and keeps the old content until it loads the history again;
   * a source session takes the caller's content when it loads. Decisions still agree.
   */
  let sameIdEdit = false;
  let counted = 0;
  let calls = 0;
  const fresh = (role: Message['role'], size: number): Message => {
    next += 1;
    return { id: `m${next}`, role, parts: [{ type: 'text', text: text(`m${next}`, size) }] };
  };
  for (const op of ops) {
    if (op.kind === 'evict') {
      pair = sessions(fullStore, sourceStore, window);
      previous = undefined;
      continue;
    }
    if (op.kind === 'request') {
      pair.full.requestCompaction();
      pair.source.requestCompaction();
      continue;
    }
    if (op.kind === 'skip-usage') {
      skipUsage = true;
      continue;
    }
    if (op.kind === 'read-history') {
      const [full, source] = await Promise.all([pair.full.history(), pair.source.history()]);
      expect(source.map((m) => m.id)).toEqual(full.map((m) => m.id));
      continue;
    }
    if (op.kind === 'add') {
      list = [...list];
      if (op.shape === 'user' || op.shape === 'assistant') list.push(fresh(op.shape, op.size));
      else if (op.shape === 'pair' || op.shape === 'call') {
        next += 1;
        const call = `call${next}`;
        list.push({
          id: `m${next}`,
          role: 'assistant',
          parts: [{ type: 'tool-call', toolCallId: call, toolName: 'read', input: { path: `f${next}` } }],
        });
        if (op.shape === 'pair') list.push(resultOf(call, op.size));
        else open = call;
      } else if (open) {
        list.push(resultOf(open, op.size));
        open = undefined;
      } else list.push(fresh('user', op.size));
    } else if ('at' in op && list.length > 0) {
      const at = op.at % list.length;
      list = [...list];
      const old = list[at]!;
      if (op.kind === 'edit-same-id') {
        list[at] = { ...old, parts: [{ type: 'text', text: text(old.id, 3, ' edited') }] };
        sameIdEdit = true;
      } else if (op.kind === 'edit-new-id') {
        list[at] = { ...fresh(old.role, 5) };
      } else if (op.kind === 'remove') {
        list.splice(at, 1);
      } else {
        list.splice(at, 0, fresh('user', 5));
      }
      continue; // an edit goes with the next call's new message
    }
    const source = arraySource(list.slice(), previous);
    previous = source;
    const [full, viaSource] = await Promise.all([
      pair.full.prepare({ messages: list.slice() }),
      pair.source.prepare({ history: source }),
    ]);
    calls += 1;
    // Counted, not loaded: the call read only the new messages, nothing of the old ones.
    if (viaSource.asIs && source.reads.every((from) => from > 0)) counted += 1;
    compareCalls(full, viaSource, sameIdEdit);
    if (!skipUsage) {
      const inputTokens = 300 + full.messages.reduce((sum, m) => sum + JSON.stringify(m.parts).length, 0) / 3;
      await Promise.all([
        pair.full.recordUsage({ inputTokens: Math.round(inputTokens) }),
        pair.source.recordUsage({ inputTokens: Math.round(inputTokens) }),
      ]);
    }
    skipUsage = false;
    const [fullRecord, sourceRecord] = await Promise.all([
      fullStore.loadRecord('conversation'),
      sourceStore.loadRecord('conversation'),
    ]);
    if (!sameIdEdit) expect(comparable(sourceRecord)).toEqual(comparable(fullRecord));
    else expect(sourceRecord?.usage?.lastMessageId).toBe(fullRecord?.usage?.lastMessageId);
    if (!sameIdEdit) expect(await pair.source.state().then(Boolean)).toBe(await pair.full.state().then(Boolean));
  }
  return { counted, calls };

  function resultOf(call: string, size: number): Message {
    next += 1;
    return {
      id: `m${next}`,
      role: 'tool',
      parts: [{ type: 'tool-result', toolCallId: call, toolName: 'read', output: text(call, size), isError: false }],
    };
  }
}

function compareCalls(full: PreparedContext, viaSource: PreparedContext, sameIdEdit: boolean): void {
  // Content the full path does not hold can change what a compaction makes of it: only ids then.
  if (sameIdEdit) return;
  expect(Boolean(viaSource.compaction)).toBe(Boolean(full.compaction));
  expect(viaSource.messages.map((m) => m.id)).toEqual(full.messages.map((m) => m.id));
  expect(viaSource.messages.map((m) => m.parts)).toEqual(full.messages.map((m) => m.parts));
  expect(viaSource.tokens).toBe(full.tokens);
}

describe('prepare({ history }): counted, not loaded (property)', () => {
  it('decides every call as prepare({ messages }) does, and stores the same records', async () => {
    let counted = 0;
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArbitrary(['edit-new-id', 'remove', 'insert']), { minLength: 5, maxLength: 60 }),
        fc.constantFrom(6_000, 20_000, 200_000, 2_000_000),
        async (ops, window) => {
          const figures = await run(ops, window);
          counted += figures.counted;
          calls += figures.calls;
        },
      ),
      { numRuns: 300 },
    );
    // The generator reaches the counted path often (compactions, edits, requests and repairs take the full one).
    expect(counted).toBeGreaterThan(calls / 10);
    expect(counted).toBeLessThan(calls);
  }, 300_000);

  it('appends or branches as prepare({ messages }) does when old messages get new content under their ids', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArbitrary(['edit-same-id', 'edit-new-id', 'remove', 'insert']), { minLength: 5, maxLength: 60 }),
        fc.constantFrom(6_000, 200_000),
        async (ops, window) => {
          await run(ops, window);
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);
});
