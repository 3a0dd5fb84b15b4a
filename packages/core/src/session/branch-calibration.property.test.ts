import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { truncateSummarizer } from '../summarize/index.js';
import { countMessageTokens } from '../tokens/count-message-tokens.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { calibratedTokens } from '../tokens/estimate-context-tokens.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { comparable } from './__fixtures__/comparable-record.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionSession, HistorySource } from './types.js';

// A branch switch after a stretch of calls far below the trigger (issue 16, session 9): the
// ratio the stretch teaches is learned before the old branch is replaced — what settling the
// same calls without a switch learns — on the loaded path and the counted one alike, each
// message counted once, and nothing of the old branch's count in the new branch's record.

const heuristic = heuristicCounter();
const ours = (messages: readonly Message[]) =>
  messages.reduce((sum, message) => sum + countMessageTokens(message, heuristic), 0);
const message = (id: string, role: Message['role'], words: number): Message => ({
  id,
  role,
  parts: [{ type: 'text', text: `${id} ${'alpha beta gamma delta '.repeat(Math.ceil(words / 4))}` }],
});

/** Trigger 150,000: every call before the switch (≤ 16 × 2 × 900 words, ratio ≤ 1.8) is far below it. */
const settings = { contextWindow: 200_000, reserveTokens: 20_000, trigger: 150_000, keepRecentTokens: 20_000 };
const TRIGGER = 150_000;

type Switch =
  | { kind: 'edit' | 'insert' | 'remove'; at: number }
  | { kind: 'rewind'; to: number }
  | { kind: 'regenerate' };

const switchArbitrary: fc.Arbitrary<Switch> = fc.oneof(
  fc.record({ kind: fc.constantFrom('edit' as const, 'insert' as const, 'remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('rewind' as const), to: fc.nat() }),
  fc.record({ kind: fc.constant('regenerate' as const) }),
);

/** One call: the messages it adds (sizes in words: ~1.44 of ours a word, so ≥ 500 a call) and the provider's ratio for it. */
const callArbitrary = fc.record({
  sizes: fc.array(fc.integer({ min: 350, max: 900 }), { minLength: 1, maxLength: 2 }),
  ratio: fc.double({ min: 0.6, max: 1.8, noNaN: true }),
});

/** A session over `store` and how the caller hands it its history; every text the counter reads is tallied. */
function caller(store: SessionStore, way: 'messages' | 'history') {
  const texts = new Map<string, number>();
  const counting = {
    name: 'tally',
    countText(text: string) {
      texts.set(text, (texts.get(text) ?? 0) + 1);
      return heuristic.countText(text);
    },
  };
  const session: CompactionSession = createCompactionSession({
    sessionId: 's',
    store,
    persistHistory: false,
    settings,
    tokenCache: createTokenCache(counting),
    summarizer: truncateSummarizer(),
  });
  let previous: (HistorySource & { list: readonly Message[] }) | undefined;
  let asIs = 0;
  return {
    session,
    texts,
    held: () => asIs,
    async prepare(list: readonly Message[]) {
      const copy = list.slice();
      if (way === 'messages') return session.prepare({ messages: copy });
      let unchanged = 0;
      if (previous) {
        while (unchanged < Math.min(previous.list.length, copy.length) && previous.list[unchanged] === copy[unchanged])
          unchanged += 1;
      }
      const source: HistorySource & { list: readonly Message[] } = {
        list: copy,
        length: copy.length,
        messages: (from) => copy.slice(from),
        ...(previous ? { since: { source: previous, unchanged } } : {}),
      };
      previous = source;
      const prepared = await session.prepare({ history: source });
      if (prepared.asIs) asIs += 1;
      return prepared;
    },
  };
}

/** The caller's list after a switch of `kind` (always another branch: the old list is not its prefix). */
function switched(list: readonly Message[], change: Switch, fresh: () => string): Message[] {
  const next = list.slice();
  if (change.kind === 'regenerate') next[next.length - 1] = message(fresh(), 'assistant', 120);
  else if (change.kind === 'rewind') next.length = change.to % list.length;
  else {
    const at = change.at % list.length;
    if (change.kind === 'edit') next[at] = message(fresh(), next[at]!.role, 40);
    else if (change.kind === 'insert') next.splice(at, 0, message(fresh(), 'user', 40));
    else next.splice(at, 1);
  }
  return next;
}

describe('a branch switch after calls far below the trigger (property)', () => {
  it('learns what settling the stretch without the switch learns, on both paths, and meets the new branch with it', async () => {
    let learned = 0;
    let heldCounted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArbitrary, { minLength: 2, maxLength: 16 }),
        fc.nat(),
        switchArbitrary,
        fc.constantFrom('reported' as const, 'unreported' as const, 'refused' as const),
        fc.option(fc.double({ min: 0.7, max: 1.5, noNaN: true }), { nil: undefined }),
        fc.integer({ min: 0, max: 3_000 }),
        async (calls, cut, change, lastReport, prior, overhead) => {
          const at = 1 + (cut % calls.length); // the switch comes after this many calls
          const start = prior === undefined ? undefined : { calibration: { default: prior } };
          const stores = { messages: memoryStore(), history: memoryStore(), reference: memoryStore() };
          if (start) for (const store of Object.values(stores)) await store.saveRecord('s', start);
          // The store may refuse the last report before the switch (saved again on the next call).
          let refusing = false;
          const refuses = (store: SessionStore) =>
            faultyStore(store, (operation) => refusing && operation === 'saveRecord');
          const loaded = caller(refuses(stores.messages), 'messages');
          const counted = caller(refuses(stores.history), 'history');
          const reference = caller(refuses(stores.reference), 'messages');
          const history: Message[] = [];
          for (const [index, { sizes, ratio }] of calls.slice(0, at).entries()) {
            for (const words of sizes)
              history.push(message(`m${history.length}`, history.length % 2 ? 'assistant' : 'user', words));
            const inputTokens = Math.round(ours(history) * ratio) + overhead;
            const last = index === at - 1;
            for (const run of [loaded, counted, reference]) {
              await run.prepare(history);
              // The last call before the switch may go without a report (the record is the call's before),
              // or with one the store refuses (the session holds it, to save on the next call).
              if (last && lastReport === 'unreported') continue;
              refusing = last && lastReport === 'refused';
              await run.session.recordUsage({ inputTokens });
              refusing = false;
            }
          }
          if (counted.held() > 0) heldCounted += 1;
          // Settling the same calls without a switch (what the next call near the trigger would do).
          const before = (await stores.reference.loadRecord('s'))?.calibration?.default;
          await reference.session.compact();
          const settled = (await stores.reference.loadRecord('s'))?.calibration?.default;
          if (settled !== before) learned += 1;

          let made = 0;
          const branch = switched(history, change, () => `b${made++}`);
          // A paste that brings the new branch near the trigger at the ratio learned.
          const words = Math.max(0, Math.floor(((0.9 * TRIGGER) / (settled ?? 1) - ours(branch)) / 1.5));
          branch.push(message('paste', 'user', words));
          for (const run of [loaded, counted]) {
            const prepared = await run.prepare(branch);
            const record = await (run === loaded ? stores.messages : stores.history).loadRecord('s');
            expect(record?.calibration?.default).toBe(settled);
            // The new branch is met at that ratio: its estimate is our count of it, calibrated.
            expect(prepared.compaction).toBeUndefined();
            expect(prepared.tokens).toBe(calibratedTokens(ours(branch), settled ?? 1));
            await run.session.recordUsage({ inputTokens: Math.round(prepared.tokens * 1.01) });
            // Nothing of the old branch's count in the new branch's record.
            const usage = (await (run === loaded ? stores.messages : stores.history).loadRecord('s'))?.usage;
            expect(usage?.countedTokens).toBe(ours(branch));
            expect(usage?.countedLength).toBeUndefined();
            expect(usage?.countedPrefixTokens).toBeUndefined();
            // Each message counted once, the old branch's stretch included.
            for (const [text, times] of run.texts) expect([text.slice(0, 12), times]).toEqual([text.slice(0, 12), 1]);
          }
          expect(comparable(await stores.history.loadRecord('s'))).toEqual(
            comparable(await stores.messages.loadRecord('s')),
          );
        },
      ),
      { numRuns: 120 },
    );
    // The cases that matter were reached: a stretch learned at the switch, held counted, not loaded.
    expect(learned).toBeGreaterThan(40);
    expect(heldCounted).toBeGreaterThan(40);
  }, 120_000);

  it('after a compaction (a stretch at its version, over the loaded history; the switch keeps the state or drops it), learns what settling learns, on both paths', async () => {
    let learned = 0;
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArbitrary, { minLength: 3, maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        switchArbitrary,
        async (calls, cut, when, change) => {
          const at = 2 + (cut % (calls.length - 1)); // the switch comes after this many calls
          const compactAfter = 1 + (when % (at - 1)); // and a compaction before the last of them
          const stores = { messages: memoryStore(), history: memoryStore(), reference: memoryStore() };
          const runs = [
            caller(stores.messages, 'messages'),
            caller(stores.history, 'history'),
            caller(stores.reference, 'messages'),
          ];
          const history: Message[] = [];
          for (const [index, { sizes, ratio }] of calls.slice(0, at).entries()) {
            for (const words of sizes)
              history.push(message(`m${history.length}`, history.length % 2 ? 'assistant' : 'user', words));
            for (const run of runs) {
              const prepared = await run.prepare(history);
              await run.session.recordUsage({ inputTokens: Math.round(ours(prepared.messages) * ratio) + 500 });
              if (index + 1 === compactAfter && (await run.session.compact({ keepRecentTokens: 600 }))) compacted += 1;
            }
          }
          const [loaded, counted, reference] = runs as [(typeof runs)[0], (typeof runs)[0], (typeof runs)[0]];
          const before = (await stores.reference.loadRecord('s'))?.calibration?.default;
          await reference.session.compact();
          const settled = (await stores.reference.loadRecord('s'))?.calibration?.default;
          if (settled !== before) learned += 1;
          let made = 0;
          const branch = [...switched(history, change, () => `b${made++}`), message('next', 'user', 30)];
          for (const [run, store] of [
            [loaded, stores.messages],
            [counted, stores.history],
          ] as const) {
            const prepared = await run.prepare(branch);
            expect(prepared.compaction).toBeUndefined();
            expect((await store.loadRecord('s'))?.calibration?.default).toBe(settled);
            await run.session.recordUsage({ inputTokens: 1_000 + ours(prepared.messages) });
            const usage = (await store.loadRecord('s'))?.usage;
            expect(usage?.countedLength).toBeUndefined();
            expect(usage?.countedPrefixTokens).toBeUndefined();
          }
          expect(comparable(await stores.history.loadRecord('s'))).toEqual(
            comparable(await stores.messages.loadRecord('s')),
          );
        },
      ),
      { numRuns: 80 },
    );
    expect(compacted).toBeGreaterThan(80);
    expect(learned).toBeGreaterThan(20);
  }, 120_000);
});
