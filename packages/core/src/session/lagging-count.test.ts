import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { truncateSummarizer } from '../summarize/index.js';
import { countMessageTokens } from '../tokens/count-message-tokens.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import { countedPair } from './next-usage-record.js';

// A usage record whose count lags its call (issue 16, session 8): what it may carry, and how a
// release before the lagging count reads it. Found by review; each failed before its fix.

const ours = (messages: readonly Message[]) =>
  messages.reduce((sum, message) => sum + countMessageTokens(message, heuristicCounter()), 0);
const message = (id: string, role: 'user' | 'assistant', words: number): Message => ({
  id,
  role,
  parts: [{ type: 'text', text: `${id} ${'alpha beta gamma delta '.repeat(Math.ceil(words / 4))}` }],
});

function make(store: SessionStore, settings: Record<string, number>) {
  return createCompactionSession({
    sessionId: 's',
    store,
    persistHistory: false,
    settings,
    counter: heuristicCounter(),
    summarizer: truncateSummarizer(),
  });
}

describe('a lagging count', () => {
  it('property: never carries another branch’s pair as this history’s count (a recreated session handed a branch its record does not cover)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 20, max: 3000 }), { minLength: 2, maxLength: 6 }),
        fc.array(fc.integer({ min: 20, max: 400 }), { minLength: 2, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (sizesA, sizesB, later) => {
          const store = memoryStore();
          const settings = { contextWindow: 100_000, reserveTokens: 10_000, trigger: 90_000 };
          const A = sizesA.map((words, i) => message(`a${i}`, i % 2 ? 'assistant' : 'user', words));
          let session = make(store, settings);
          for (let n = 1; n <= A.length; n += 1) {
            const prepared = await session.prepare({ messages: A.slice(0, n) });
            await session.recordUsage({ inputTokens: ours(prepared.messages) + 900 });
          }
          // Recreated (a restart, an eviction) and handed branch B: its first call gets no report.
          session = make(store, settings);
          const B = sizesB.map((words, i) => message(`b${i}`, i % 2 ? 'assistant' : 'user', words));
          await session.prepare({ messages: B });
          for (let k = 0; k < later; k += 1) {
            B.push(message(`b${B.length}`, B.length % 2 ? 'assistant' : 'user', 30));
            const prepared = await session.prepare({ messages: B });
            await session.recordUsage({ inputTokens: ours(prepared.messages) + 900 });
          }
          const pair = countedPair((await store.loadRecord('s'))?.usage);
          if (pair) expect(pair.tokens).toBe(ours(B.slice(0, pair.length)));
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it("never writes countedTokens for fewer messages than the call (a release before the lag reads it as the whole call's count)", async () => {
    const store = memoryStore();
    const session = make(store, { contextWindow: 100_000, reserveTokens: 10_000, trigger: 90_000 });
    const history: Message[] = [];
    for (let i = 0; i < 30; i += 1) {
      history.push(message(`m${i}`, i % 2 ? 'assistant' : 'user', 300));
      const prepared = await session.prepare({ messages: history });
      await session.recordUsage({ inputTokens: ours(prepared.messages) + 900 });
    }
    const usage = (await store.loadRecord('s'))?.usage;
    // The calls were far below the trigger: the record lags (our count covers a prefix).
    expect(usage?.countedLength).toBeLessThan(usage!.historyLength);
    // 8a9be62 reads `countedTokens` as our count of all `historyLength` messages (countedLength is
    // unknown to it), and after a compaction adds the offset it takes from it: a prefix's count
    // there would overstate the compacted context by the uncounted stretch. Absent, it recounts.
    expect(usage?.countedTokens).toBeUndefined();
    expect(countedPair(usage)?.tokens).toBe(ours(history.slice(0, usage!.countedLength)));
  });
});
