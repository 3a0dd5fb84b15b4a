import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { keptStartIndex, prepareCompaction } from './prepare-compaction.js';

const settings = resolveSettings(
  { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 1_000, minMessages: 4 },
  200_000,
);

/** Counts afresh: the builder's ids repeat across generated conversations, so an id cache would mix them. */
const count = (message: Message) => createTokenCache(heuristicCounter()).count(message);

function chat(turns: number, size: number): Message[] {
  const c = conversation();
  return Array.from({ length: turns }, (_, turn) => [
    c.user(`q${turn} ${words(size)}`),
    c.assistant(words(size)),
  ]).flat();
}

describe('prepareCompaction', () => {
  it('nothing to plan below minMessages unless forced', () => {
    const messages = chat(1, 2_000);
    expect(prepareCompaction(messages, undefined, settings, { countTokens: count })).toBeUndefined();
  });

  it('property: the plan partitions the history — summarized, prefix and kept are contiguous and in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 5, max: 800 }),
        fc.boolean(),
        (turns, size, force) => {
          const messages = chat(turns, size);
          const plan = prepareCompaction(messages, undefined, settings, { countTokens: count, force });
          if (!plan) return;
          expect(plan.startIndex).toBe(0);
          expect(plan.keptMessages).toEqual(messages.slice(plan.firstKeptIndex));
          const summarizedEnd = plan.isSplitTurn ? plan.turnStartIndex : plan.firstKeptIndex;
          expect(plan.historyMessages).toEqual(messages.slice(0, summarizedEnd));
          expect(plan.turnPrefixMessages).toEqual(
            plan.isSplitTurn ? messages.slice(plan.turnStartIndex, plan.firstKeptIndex) : [],
          );
          expect(plan.historyMessages.length + plan.turnPrefixMessages.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a state from another branch is refused with InvalidStateError', () => {
    const messages = chat(3, 10);
    const state = {
      schema: 1 as const,
      version: 1,
      summary: 'S',
      firstKeptMessageId: 'gone',
      summarizedRange: { fromIndex: 0, toIndex: 0, messageCount: 1 },
      prunedToolCallIds: [],
      fileOps: { read: [], modified: [] },
      tokensBefore: 1,
      tokensAfter: 1,
      strategy: 'structured',
      createdAt: '2026-11-25T00:00:00.000Z',
    };
    expect(() => keptStartIndex(messages, state)).toThrow(InvalidStateError);
  });
});
