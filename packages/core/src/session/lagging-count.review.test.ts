import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactionState } from '../compaction/compaction-state.js';
import { contextTokens } from '../compaction/context-tokens.js';
import type { Message } from '../messages/types.js';
import { resolveSettings, triggerTokens } from '../settings/compaction-settings.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionRecord, SessionStore } from '../store/session-store.js';
import { truncateSummarizer } from '../summarize/index.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import { countedPair } from './next-usage-record.js';
import type { CompactionEvent, CompactionSession, HistorySource } from './types.js';

// Review of the lagging count (issue 16, session 8), session 9: a model of a conversation that
// restarts, calls without a usage report, has its saves refused, compacts by hand and recovers
// from an overflow, against a provider whose figure is our count plus a fixed overhead (ratio 1:
// every estimate is then exact). What it checks after every step: the stored pair is a full
// recount of its prefix, an exact count is a full recount of its call, a call sent without a
// compaction is under the trigger, and an automatic compaction ran only over the trigger.

const message = (index: number, words: number): Message => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text: `${index} ${'alpha beta gamma delta '.repeat(Math.ceil(words / 4))}` }],
});

/** A store that refuses the next `refusing` record saves (a database down for a moment). */
function flakyStore(inner: SessionStore): SessionStore & { refusing: number } {
  const store = {
    refusing: 0,
    loadHistory: inner.loadHistory.bind(inner),
    appendHistory: inner.appendHistory.bind(inner),
    loadRecord: inner.loadRecord.bind(inner),
    clear: inner.clear.bind(inner),
    async saveRecord(sessionId: string, record: SessionRecord, options?: { expectedRevision?: number }) {
      if (store.refusing > 0) {
        store.refusing -= 1;
        throw new Error('store down for a moment');
      }
      return inner.saveRecord(sessionId, record, options);
    },
  };
  return store;
}

type Step =
  | { kind: 'call'; sizes: number[]; report: boolean }
  | { kind: 'restart' }
  | { kind: 'refuse'; saves: number }
  | { kind: 'compact' }
  | { kind: 'overflow' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 14,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      sizes: fc.array(fc.integer({ min: 20, max: 900 }), { minLength: 1, maxLength: 3 }),
      report: fc.integer({ min: 0, max: 9 }).map((n) => n < 8),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refuse' as const), saves: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'compact' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'overflow' as const }) },
);

const OVERFLOW = new Error("This model's maximum context length is 4096 tokens. However, you requested 5000 tokens");

describe('the lagging count under restarts, missing reports, refused saves, manual compactions and overflow recovery (review)', () => {
  it('property: the stored count is a full recount, no call goes out over the trigger, no compaction under it', async () => {
    const counter = heuristicCounter();
    const stats = { steps: 0, lagged: 0, compactions: 0, checkedSent: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 10, maxLength: 120 }),
        fc.integer({ min: 0, max: 3_000 }),
        fc.constantFrom(24_000, 48_000),
        fc.boolean(),
        fc.constantFrom(1, 1, 0.7, 1.6),
        async (steps, overhead, window, asSource, ratio) => {
          /** The provider's figure for a context we count `counted`: exact when `ratio` is 1. */
          const provider = (counted: number) => Math.round(counted * ratio) + overhead;
          const inner = memoryStore();
          const store = flakyStore(inner);
          const options = { contextWindow: window, keepRecentTokens: Math.floor(window / 5), minMessages: 4 };
          const settings = resolveSettings(options, window);
          const trigger = triggerTokens(settings);
          const built = { historyTools: settings.historyTools };
          const referenceCache = createTokenCache(counter);
          const truth = (history: readonly Message[], state: CompactionState | undefined) => {
            const kept = state ? history.findIndex((item) => item.id === state.firstKeptMessageId) : -1;
            return contextTokens(history, kept >= 0 ? state : undefined, referenceCache.count, counter, built);
          };
          const events: CompactionEvent[] = [];
          const make = (): CompactionSession => {
            const session = createCompactionSession({
              sessionId: 's',
              store,
              settings: options,
              counter,
              summarizer: truncateSummarizer(),
              ...(asSource ? { persistHistory: false } : {}),
            });
            session.on((event) => events.push(event));
            return session;
          };
          let session = make();
          const history: Message[] = [];
          const source = (): HistorySource => {
            const length = history.length;
            return { length, messages: (from) => history.slice(from, length) };
          };
          let next = 0;
          let unreliable = false;
          /** Whether the session was given its history since it was made (a source session holds none before). */
          let primed = false;
          for (const step of steps) {
            stats.steps += 1;
            if (step.kind === 'restart') {
              session = make();
              primed = !asSource;
              continue;
            }
            if (step.kind === 'refuse') {
              store.refusing = step.saves;
              continue;
            }
            if (step.kind === 'compact') {
              if (primed) await session.compact();
            } else if (step.kind === 'overflow') {
              if (primed) await session.recoverFromOverflow(OVERFLOW);
            } else {
              primed = true;
              for (const words of step.sizes) history.push(message(next++, words));
              const seen = events.length;
              const stateBefore = await session.state();
              const before = provider(truth(history, stateBefore));
              const prepared = await session.prepare(asSource ? { history: source() } : { messages: history });
              const stateAfter = await session.state();
              const sent = provider(truth(history, stateAfter));
              const autos = events.slice(seen).filter((event) => event.type === 'compaction:start');
              if (events.slice(seen).some((event) => event.type === 'compaction:error')) unreliable = true;
              for (const event of events.slice(seen)) {
                if (event.type === 'compaction:end' && event.tokensAfter > trigger) unreliable = true;
              }
              // Only with an exact provider are the estimates exact (a ratio is learned over calls).
              if (ratio !== 1) unreliable = true;
              if (autos.length > 0 && ratio === 1) {
                stats.compactions += 1;
                // An automatic compaction runs only when the context is over the trigger (no double compaction).
                expect(before, 'compacted a context under the trigger').toBeGreaterThan(trigger);
              } else if (!unreliable && history.length >= settings.minMessages && !prepared.compaction) {
                stats.checkedSent += 1;
                // Exact estimates: a call that goes out without a compaction is under the trigger.
                expect(sent, 'sent a context over the trigger without compacting').toBeLessThanOrEqual(trigger);
              }
              if (step.report) await session.recordUsage({ inputTokens: sent });
              // Nothing lost or doubled: the stored history (when the session keeps one) and the session's are the caller's.
              const ids = history.map((item) => item.id);
              // (A source session's history() would load it whole every call: read once at the end.)
              if (!asSource) {
                expect((await inner.loadHistory('s')).map((item) => item.id)).toEqual(ids);
                expect((await session.history()).map((item) => item.id)).toEqual(ids);
              }
            }
            // Whatever the store holds is a count of what it says it counts.
            const stored = await inner.loadRecord('s');
            const usage = stored?.usage;
            const pair = countedPair(usage);
            if (!usage || !pair) continue;
            if (usage.countedLength !== undefined) stats.lagged += 1;
            if (usage.stateVersion !== (stored?.state?.version ?? 0)) continue; // a record of a context that is gone
            const covers = usage.historyLength <= history.length;
            if (!covers) continue;
            const prefix = history.slice(0, pair.length);
            expect(pair.tokens, 'the stored pair is not a count of its prefix').toBe(truth(prefix, stored?.state));
            if (usage.countedTokens !== undefined) {
              expect(usage.countedTokens).toBe(truth(history.slice(0, usage.historyLength), stored?.state));
            }
            // The pair's provider figure is what the provider said for that prefix.
            expect(pair.inputTokens, 'the pair’s figure is another call’s').toBe(provider(pair.tokens));
          }
          if (primed) expect((await session.history()).map((item) => item.id)).toEqual(history.map((item) => item.id));
        },
      ),
      { numRuns: 400 },
    );
    expect(stats.lagged).toBeGreaterThan(50);
    expect(stats.compactions).toBeGreaterThan(10);
    expect(stats.checkedSent).toBeGreaterThan(500);
  }, 240_000);
});

describe('the stored count over tool calls that wait for their result (review)', () => {
  it('property: a count taken while a tool call waits for its result, then carried on, is still a full recount', async () => {
    const counter = heuristicCounter();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('text', 'pending', 'answered'), { minLength: 2, maxLength: 12 }),
        fc.boolean(),
        async (turns, far) => {
          // Keyed by id: one a run (ids repeat across runs with other content).
          const cache = createTokenCache(counter);
          const store = memoryStore();
          const window = far ? 1_000_000 : 4_000;
          const session = createCompactionSession({
            sessionId: 's',
            store,
            settings: { contextWindow: window, keepRecentTokens: 800, minMessages: 1_000 },
            counter,
            summarizer: truncateSummarizer(),
          });
          const history: Message[] = [];
          let next = 0;
          for (const turn of turns) {
            const id = `m${next++}`;
            // A call made while the last assistant message's tool call has no result yet (an approval waiting).
            if (turn === 'text') {
              history.push({
                id,
                role: 'user',
                parts: [{ type: 'text', text: `question ${id} ${'word '.repeat(40)}` }],
              });
            } else {
              history.push({
                id,
                role: 'assistant',
                parts: [{ type: 'tool-call', toolCallId: `c${id}`, toolName: 'read', input: { path: id } }],
              });
              if (turn === 'answered') {
                await session.prepare({ messages: history });
                await session.recordUsage({
                  inputTokens: contextTokens(history, undefined, cache.count, counter) + 500,
                });
                history.push({
                  id: `m${next++}`,
                  role: 'tool',
                  parts: [{ type: 'tool-result', toolCallId: `c${id}`, toolName: 'read', output: 'x'.repeat(200) }],
                });
              }
            }
            await session.prepare({ messages: history });
            await session.recordUsage({ inputTokens: contextTokens(history, undefined, cache.count, counter) + 500 });
            const usage = (await store.loadRecord('s'))?.usage;
            const pair = countedPair(usage);
            if (!pair) continue;
            expect(pair.tokens).toBe(contextTokens(history.slice(0, pair.length), undefined, cache.count, counter));
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});

// Was a defect (wrong figure, small, older than the lagging count; fixed in da51aa2): `counted()` went on from a count taken
// while a tool call waited for its result — a count that holds the context's synthetic "no result"
// result — and adds the real result, so the settled `countedTokens` overstates the context by the
// synthetic result (here 193 where a full recount is 169). The memo's step-by-step extension
// (token-estimate.ts) assumes each message adds its own count, which a repaired context breaks.
describe('a count that goes on past a tool call answered after it was counted does not overstate by the synthetic result (fixed: da51aa2)', () => {
  it('the settled countedTokens is a full recount', async () => {
    const counter = heuristicCounter();
    const cache = createTokenCache(counter);
    const store = memoryStore();
    const session = createCompactionSession({
      sessionId: 's',
      store,
      settings: { contextWindow: 1_000_000, keepRecentTokens: 20, minMessages: 1 },
      counter,
      summarizer: truncateSummarizer(),
    });
    const history: Message[] = [
      { id: 'u0', role: 'user', parts: [{ type: 'text', text: 'hello there '.repeat(20) }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'x' } }],
      },
    ];
    const call = async () => {
      await session.prepare({ messages: history });
      await session.recordUsage({ inputTokens: contextTokens(history, undefined, cache.count, counter) + 500 });
    };
    await call(); // counted while the tool call waits: the context holds a synthetic result
    history.push({
      id: 't2',
      role: 'tool',
      parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: 'y'.repeat(200) }],
    });
    await call();
    history.push({ id: 'u3', role: 'user', parts: [{ type: 'text', text: 'next '.repeat(30) }] });
    await call();
    await session.compact(); // settles the count first (the compaction itself cannot shrink this context)
    const usage = (await store.loadRecord('s'))!.usage!;
    expect(usage.countedLength).toBeUndefined();
    expect(usage.countedTokens).toBe(contextTokens(history, undefined, cache.count, counter));
  });
});
