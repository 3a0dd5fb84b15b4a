import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextTokens } from '../compaction/context-tokens.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionRecord, UsageRecord } from '../store/session-store.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { updateCalibration } from '../tokens/update-calibration.js';
import { createCompactionSession } from './create-compaction-session.js';
import { countedPair } from './next-usage-record.js';

/**
 * The previous release's `nextUsageRecord` (8a9be62), kept as the reference: every call
 * counted, one calibration sample per call that grew at least 500 counted tokens since the
 * report before it on the same compaction version.
 */
function everyCallCounted(
  record: SessionRecord,
  prepared: { historyLength: number; stateVersion: number; counted: number },
  inputTokens: number,
  modelKey: string,
): SessionRecord {
  const previous = record.usage;
  let calibration = record.calibration;
  if (previous?.countedTokens !== undefined && previous.stateVersion === prepared.stateVersion) {
    const grownCounted = prepared.counted - previous.countedTokens;
    const grownReported = inputTokens - previous.inputTokens;
    if (grownCounted >= 500) {
      const updated = updateCalibration(calibration?.[modelKey], grownReported, grownCounted);
      if (updated !== undefined) calibration = { ...calibration, [modelKey]: updated };
    }
  }
  const usage: UsageRecord = {
    inputTokens,
    contextMessageCount: 0,
    historyLength: prepared.historyLength,
    stateVersion: prepared.stateVersion,
    countedTokens: prepared.counted,
  };
  return { ...record, usage, ...(calibration !== undefined ? { calibration } : {}) };
}

/** One call: the messages it adds, each a size in words (heuristic: ~1.5 tokens a word, ≥ 500 a call). */
const callArbitrary = fc.array(fc.integer({ min: 350, max: 900 }), { minLength: 1, maxLength: 2 });

const message = (index: number, words: number): Message => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text: `${index} ${'alpha beta gamma delta '.repeat(Math.ceil(words / 4))}` }],
});

describe('a count left behind by calls far below the trigger (property)', () => {
  it('stays a count of its prefix, counts nothing far below, catches up to a full recount, and learns the ratio every call would have', async () => {
    let compacted = 0;
    let lagged = 0;
    let caughtUp = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArbitrary, { minLength: 10, maxLength: 60 }),
        fc.double({ min: 0.6, max: 1.8, noNaN: true }),
        fc.integer({ min: 0, max: 3_000 }),
        fc.constantFrom(24_000, 48_000, 120_000),
        async (calls, ratio, overhead, window) => {
          const texts = { count: 0 };
          const heuristic = heuristicCounter();
          const counting = {
            name: 'counting',
            countText(text: string) {
              texts.count += 1;
              return heuristic.countText(text);
            },
          };
          const options = { contextWindow: window, keepRecentTokens: Math.floor(window / 5) };
          const store = memoryStore();
          const session = createCompactionSession({
            sessionId: 's',
            store,
            settings: options,
            tokenCache: createTokenCache(counting),
          });
          const built = { historyTools: resolveSettings(options, window).historyTools };
          const referenceCache = createTokenCache(heuristic);
          let reference: SessionRecord = {};
          const history: Message[] = [];
          let next = 0;
          let lastCounted = 0;
          for (const sizes of calls) {
            for (const words of sizes) history.push(message(next++, words));
            const before = texts.count;
            const prepared = await session.prepare({ messages: history });
            if (prepared.compaction) compacted += 1;
            const state = await session.state();
            const counted = contextTokens(history, state, referenceCache.count, heuristic, built);
            const inputTokens = Math.round(counted * ratio) + overhead;
            await session.recordUsage({ inputTokens });
            const stored = (await store.loadRecord('s'))!;
            const usage = stored.usage!;
            reference = everyCallCounted(
              reference,
              { historyLength: history.length, stateVersion: state?.version ?? 0, counted },
              inputTokens,
              'default',
            );
            const pair = countedPair(usage)!;
            // The record's count is our count of the context over its first `length` messages.
            const kept = state ? history.findIndex((item) => item.id === state.firstKeptMessageId) : -1;
            const prefix = history.slice(0, pair.length);
            const applies = kept >= 0 && kept < pair.length ? state : undefined;
            expect(pair.tokens).toBe(contextTokens(prefix, applies, referenceCache.count, heuristic, built));
            if (usage.countedLength !== undefined) {
              lagged += 1;
              // A call far below the trigger: no tokenizer call at all.
              expect(texts.count - before).toBe(0);
              expect(pair.length).toBe(lastCounted);
            } else {
              // Counted (caught up on the exact path): a full recount, and the ratio every call would have learned.
              if (pair.length > lastCounted + sizes.length) caughtUp += 1;
              lastCounted = history.length;
              expect(pair.tokens).toBe(counted);
              const learned = stored.calibration?.default;
              const expected = reference.calibration?.default;
              expect(learned === undefined).toBe(expected === undefined);
              if (learned !== undefined) expect(Math.abs(learned - expected!)).toBeLessThanOrEqual(0.01);
            }
          }
          // A compaction asked for catches the count up first: the record is exact, a full recount.
          await session.compact();
          const last = (await store.loadRecord('s'))!.usage!;
          expect(last.countedLength).toBeUndefined();
          expect(last.countedTokens).toBe(reference.usage!.countedTokens);
        },
      ),
      { numRuns: 40 },
    );
    // The cases that matter were reached.
    expect(compacted).toBeGreaterThan(5);
    expect(lagged).toBeGreaterThan(100);
    expect(caughtUp).toBeGreaterThan(5);
  }, 120_000);
});
