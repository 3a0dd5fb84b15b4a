import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation, recordingSummarizer, words } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import type { Summarizer } from '../summarize/types.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { buildContext } from './build-context.js';
import { compact, contextTokens } from './compact.js';

const counter = heuristicCounter();
const settings = { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 1_000, trigger: 0.5, minMessages: 4 };
const now = () => new Date('2026-11-25T00:00:00.000Z');

function session(turns: number, outputTokens = 300): Message[] {
  const c = conversation();
  return Array.from({ length: turns }, (_, turn) => [
    c.user(`request ${turn}: ${words(40)}`),
    ...c.toolStep([{ name: 'read', input: { path: `src/${turn}.ts` }, output: words(outputTokens) }]),
    c.assistant(`done ${turn}`),
  ]).flat();
}

describe('compact', () => {
  it('returns undefined when there is nothing to compact', async () => {
    expect(await compact(session(1), { settings, counter })).toBeUndefined();
  });

  it('summarizes the old span; every figure of the result describes the state it returns', async () => {
    const messages = session(12);
    const { count } = createTokenCache(counter);
    const result = await compact(messages, {
      settings,
      counter,
      countTokens: count,
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
    const plain = await compact(messages, { settings, counter, summarizer: recordingSummarizer(), now, force: true });
    const scaled = await compact(messages, {
      settings,
      counter,
      summarizer: recordingSummarizer(),
      now,
      force: true,
      toContextTokens: (counted) => counted * 2 + 7,
    });
    expect(scaled!.tokensBefore).toBe(plain!.tokensBefore * 2 + 7);
    expect(scaled!.tokensAfter).toBe(plain!.tokensAfter * 2 + 7);
  });

  it('a second compaction updates the previous summary with only the newly summarized messages', async () => {
    const summarizer = recordingSummarizer();
    const messages = session(20);
    const first = await compact(messages.slice(0, 40), { settings, counter, summarizer, force: true });
    const second = await compact(messages, { settings, counter, summarizer, previous: first!.state, force: true });
    expect(second!.state.version).toBe(2);
    const update = summarizer.requests.at(-1)!;
    expect(update.previousSummary).toBe(first!.state.summary);
    const firstKept = messages.findIndex((m) => m.id === first!.state.firstKeptMessageId);
    expect(messages.indexOf(update.messages[0]!)).toBeGreaterThanOrEqual(firstKept);
  });

  it('prune-only when clearing old tool outputs is enough: no summarizer call, strategy prune', async () => {
    const summarizer = recordingSummarizer();
    const wide = { contextWindow: 20_000, reserveTokens: 1_000, keepRecentTokens: 1_000, trigger: 0.5 };
    const c = conversation();
    const messages = Array.from({ length: 16 }, (_, turn) => [
      c.user(`request ${turn}`),
      ...c.toolStep([{ name: 'read', input: { path: `src/${turn}.ts` }, output: words(600) }]),
      c.assistant(`done ${turn}`),
    ]).flat();
    const result = await compact(messages, { settings: wide, counter, summarizer });
    expect(result?.strategy).toBe('prune');
    expect(result?.messagesSummarized).toBe(0);
    expect(summarizer.requests).toHaveLength(0);
  });

  it('falls back down the chain when the given summarizer throws, and records why', async () => {
    const failing: Summarizer = {
      name: 'broken',
      summarize: async () => {
        throw new Error('model down');
      },
    };
    const result = await compact(session(12), { settings, counter, summarizer: failing, force: true });
    expect(result?.strategy).toBe('structured');
    expect(result?.fallbacks).toEqual([{ strategy: 'broken', error: expect.stringMatching(/model down/) }]);
  });

  it('property: the result never loses a message — summarized range + kept messages = the history', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 10, max: 900 }), async (turns, output) => {
        const messages = session(turns, output);
        const result = await compact(messages, { settings, counter, summarizer: recordingSummarizer(), force: true });
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
