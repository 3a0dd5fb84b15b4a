import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import { contextTokens } from '../compaction/compact.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { calibratedTokens } from '../tokens/estimate-context-tokens.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createConversationState } from './conversation-state.js';
import { createTokenEstimate, usageCoversHistory } from './token-estimate.js';

const counter = heuristicCounter();
const settings = resolveSettings({ contextWindow: 100_000, keepRecentTokens: 4_000 }, 200_000);

function setup() {
  const conversationState = createConversationState();
  const cache = createTokenCache(counter);
  const estimate = createTokenEstimate({ conversation: conversationState, settings, cache, counter, modelKey: 'm' });
  return { conversation: conversationState, estimate, cache };
}

function messages(count: number, size = 50): Message[] {
  const c = conversation();
  return Array.from({ length: count }, (_, i) => (i % 2 ? c.assistant(words(size + i)) : c.user(words(size))));
}

describe('createTokenEstimate', () => {
  it('without usage: our count of the context; with usage for this history: the report plus what came after', () => {
    const { conversation: conv, estimate, cache } = setup();
    const list = messages(6);
    conv.apply({ append: list.slice(0, 4) });
    expect(estimate.estimate()).toBe(contextTokens(conv.history, undefined, cache.count, counter));
    conv.apply({
      record: {
        usage: {
          inputTokens: 5_000,
          contextMessageCount: 4,
          historyLength: 4,
          stateVersion: 0,
          lastMessageId: list[3]!.id,
        },
      },
    });
    conv.apply({ append: list.slice(4) });
    expect(estimate.estimate()).toBe(5_000 + cache.count(list[4]!) + cache.count(list[5]!));
  });

  it('a report for another history of the same length is not applied', () => {
    const { conversation: conv, estimate, cache } = setup();
    const list = messages(4);
    conv.apply({ append: list });
    const usage = {
      inputTokens: 9_999,
      contextMessageCount: 4,
      historyLength: 4,
      stateVersion: 0,
      lastMessageId: 'other',
    };
    expect(usageCoversHistory(usage, list)).toBe(false);
    conv.apply({ record: { usage } });
    expect(estimate.estimate()).toBe(contextTokens(list, undefined, cache.count, counter));
    expect(estimate.upperBound()).toBeUndefined();
  });

  it('carries the calibration and the last report offset into counted figures', () => {
    const { conversation: conv, estimate } = setup();
    conv.apply({
      append: messages(2),
      record: {
        calibration: { m: 1.2 },
        usage: { inputTokens: 2_000, contextMessageCount: 1, historyLength: 1, stateVersion: 5, countedTokens: 1_000 },
      },
    });
    expect(estimate.ratio()).toBe(1.2);
    expect(estimate.toContextTokens(500)).toBe(calibratedTokens(500, 1.2, 2_000 - calibratedTokens(1_000, 1.2)));
    expect(estimate.keptBudget(undefined)).toBe(Math.round(4_000 / 1.2));
    expect(estimate.keptBudget(1_200)).toBe(1_000);
  });

  it('property: the incremental count equals a count from scratch, and the upper bound is never below the estimate', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 12 }),
        fc.nat({ max: 20_000 }),
        (steps, reported) => {
          const { conversation: conv, estimate, cache } = setup();
          const list = messages(
            steps.reduce((a, b) => a + b, 0),
            30,
          );
          let at = 0;
          for (const [index, step] of steps.entries()) {
            conv.apply({ append: list.slice(at, at + step) });
            at += step;
            expect(estimate.counted()).toBe(contextTokens(conv.history, undefined, cache.count, counter));
            if (index === 0) {
              conv.apply({
                record: {
                  usage: {
                    inputTokens: reported,
                    contextMessageCount: at,
                    historyLength: at,
                    stateVersion: 0,
                    lastMessageId: conv.lastMessageId()!,
                  },
                },
              });
            }
            expect(estimate.upperBound()!).toBeGreaterThanOrEqual(estimate.estimate());
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a replaced history (clear, branch) is counted afresh, never from the old memo', () => {
    const { conversation: conv, estimate, cache } = setup();
    conv.apply({ append: messages(6, 400) });
    estimate.counted();
    const fresh = messages(2, 10);
    conv.apply({ replace: fresh });
    expect(estimate.counted()).toBe(contextTokens(fresh, undefined, cache.count, counter));
  });
});
