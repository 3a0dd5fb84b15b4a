import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation, recordingSummarizer, words } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import type { Summarizer } from '../summarize/types.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { buildContext } from './build-context.js';
import { compactWith } from './compact-with.js';
import { contextTokens } from './context-tokens.js';
import { prepareCompaction } from './prepare-compaction.js';

const counter = heuristicCounter();
const settings = resolveSettings(
  { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 1_000, trigger: 0.5, minMessages: 4 },
  8_000,
);
const counting = { counter };
const now = () => new Date('2026-11-25T00:00:00.000Z');

function session(turns: number, outputTokens = 300): Message[] {
  const c = conversation();
  return Array.from({ length: turns }, (_, turn) => [
    c.user(`request ${turn}: ${words(40)}`),
    ...c.toolStep([{ name: 'read', input: { path: `src/${turn}.ts` }, output: words(outputTokens) }]),
    c.assistant(`done ${turn}`),
  ]).flat();
}

describe('compactWith', () => {
  it('summarizes the old span; every figure of the result describes the state it returns', async () => {
    const messages = session(12);
    const { count } = createTokenCache(counter);
    const result = await compactWith(messages, {
      settings,
      counting: { counter, countTokens: count },
      summarizer: recordingSummarizer(),
      now,
      force: true,
    });
    expect(result).toBeDefined();
    const { state } = result!;
    expect(state.version).toBe(1);
    expect(state.createdAt).toBe('2026-11-25T00:00:00.000Z');
    expect(result!.strategy).toBe('test');
    expect(result!.tokensBefore).toBe(contextTokens(messages, undefined, count, counter));
    expect(state.tokensBefore).toBe(result!.tokensBefore);
    expect(result!.tokensAfter).toBe(contextTokens(messages, state, count, counter));
    expect(state.tokensAfter).toBe(result!.tokensAfter);
    expect(result!.tokensAfter).toBeLessThan(result!.tokensBefore);
    expect(buildContext(messages, state)[0]!.metadata?.compaction).toMatchObject({ type: 'summary' });
  });

  it("toContextTokens turns every token figure into the provider's", async () => {
    const messages = session(12);
    const base = { settings, summarizer: recordingSummarizer(), now, force: true };
    const plain = await compactWith(messages, { ...base, counting });
    const scaled = await compactWith(messages, {
      ...base,
      summarizer: recordingSummarizer(),
      counting: { counter, toContextTokens: (counted) => counted * 2 + 7 },
    });
    expect(scaled!.tokensBefore).toBe(plain!.tokensBefore * 2 + 7);
    expect(scaled!.tokensAfter).toBe(plain!.tokensAfter * 2 + 7);
  });

  it('a second compaction updates the previous summary with only the newly summarized messages', async () => {
    const summarizer = recordingSummarizer();
    const messages = session(20);
    const first = await compactWith(messages.slice(0, 40), { settings, counting, summarizer, force: true });
    const second = await compactWith(messages, {
      settings,
      counting,
      summarizer,
      previous: first!.state,
      force: true,
    });
    expect(second!.state.version).toBe(2);
    const update = summarizer.requests.at(-1)!;
    expect(update.previousSummary).toBe(first!.state.summary);
    const firstKept = messages.findIndex((m) => m.id === first!.state.firstKeptMessageId);
    expect(messages.indexOf(update.messages[0]!)).toBeGreaterThanOrEqual(firstKept);
  });

  it('falls back down the chain when the given summarizer throws, and records why', async () => {
    const failing: Summarizer = {
      name: 'broken',
      summarize: async () => {
        throw new Error('model down');
      },
    };
    const result = await compactWith(session(12), { settings, counting, summarizer: failing, force: true });
    expect(result?.strategy).toBe('structured');
    expect(result?.fallbacks).toEqual([{ strategy: 'broken', error: expect.stringMatching(/model down/) }]);
  });

  it('records the trigger, takes the given tokensBefore, and uses a precomputed plan as it is', async () => {
    const messages = session(12);
    const { count } = createTokenCache(counter);
    const plan = prepareCompaction(messages, undefined, settings, { countTokens: count, force: true })!;
    const result = await compactWith(messages, {
      settings,
      counting: { counter, countTokens: count },
      summarizer: recordingSummarizer(),
      plan,
      tokensBefore: 99_999,
      trigger: 'overflow',
      force: true, // no prune-only shortcut: the plan's cut is the state's
    });
    expect(result?.trigger).toBe('overflow');
    expect(result?.tokensBefore).toBe(99_999);
    expect(result?.state.tokensBefore).toBe(99_999);
    expect(result?.state.firstKeptMessageId).toBe(messages[plan.firstKeptIndex]!.id);
  });

  it('keepRecentTokens overrides the setting for this compaction: a larger budget keeps more', async () => {
    const messages = session(20);
    const kept = async (keepRecentTokens: number) => {
      const result = await compactWith(messages, {
        settings,
        counting,
        summarizer: recordingSummarizer(),
        force: true,
        keepRecentTokens,
      });
      return messages.length - messages.findIndex((m) => m.id === result!.state.firstKeptMessageId);
    };
    expect(await kept(2_500)).toBeGreaterThan(await kept(500));
  });

  it('property: the result never loses a message — summarized range + kept messages = the history', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 10, max: 900 }), async (turns, output) => {
        const messages = session(turns, output);
        const result = await compactWith(messages, {
          settings,
          counting,
          summarizer: recordingSummarizer(),
          force: true,
        });
        if (!result) return;
        const firstKept = messages.findIndex((m) => m.id === result.state.firstKeptMessageId);
        expect(firstKept).toBeGreaterThanOrEqual(0);
        if (result.strategy !== 'prune') expect(result.state.summarizedRange.messageCount).toBe(firstKept);
        expect(result.tokensAfter).toBe(result.state.tokensAfter);
      }),
      { numRuns: 60 },
    );
  });
});
