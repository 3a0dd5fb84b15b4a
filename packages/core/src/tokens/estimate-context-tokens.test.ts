import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import { createTokenCache } from './create-token-cache.js';
import { estimateContextTokens } from './estimate-context-tokens.js';
import { heuristicCounter } from './heuristic-counter.js';

const counter = heuristicCounter(1);
/** Each message counts 4 (overhead) + its text length. */
const history: Message[] = ['aaaaaa', 'bbbbbb', 'cccccc', 'dddddd'].map((text, index) => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text }],
}));

describe('estimateContextTokens', () => {
  it('counts every message without usage', () => {
    expect(estimateContextTokens(history, { counter })).toBe(40);
    expect(estimateContextTokens([], { counter })).toBe(0);
  });

  it('adds reported input tokens to the count of the messages after them', () => {
    const lastUsage = { inputTokens: 1_000, messageCount: 2 };
    expect(estimateContextTokens(history, { counter, lastUsage })).toBe(1_000 + 20);
    expect(estimateContextTokens(history, { counter, lastUsage: { inputTokens: 1_000, messageCount: 4 } })).toBe(1_000);
  });

  it('scales only counted tokens by the ratio, rounding up', () => {
    const lastUsage = { inputTokens: 1_000, messageCount: 2 };
    expect(estimateContextTokens(history, { counter, lastUsage, ratio: 1.5 })).toBe(1_000 + 30);
    expect(estimateContextTokens(history, { counter, ratio: 1.01 })).toBe(Math.ceil(40 * 1.01));
  });

  it('ignores usage that claims more messages than the list holds', () => {
    const lastUsage = { inputTokens: 90_000, messageCount: 50 };
    expect(estimateContextTokens(history, { counter, lastUsage })).toBe(40);
  });

  it('uses the cache and gives the same result as without it', () => {
    const cache = createTokenCache(counter);
    expect(estimateContextTokens(history, { counter, cache })).toBe(40);
    expect(cache.size).toBe(4);
    expect(estimateContextTokens(history, { counter, cache, lastUsage: { inputTokens: 7, messageCount: 3 } })).toBe(17);
  });

  it('rejects a cache built with another counter', () => {
    const cache = createTokenCache(heuristicCounter(4));
    expect(() => estimateContextTokens(history, { counter, cache })).toThrow(/heuristic-4.*heuristic-1/);
  });

  it('rejects a bad ratio or usage with the setting named', () => {
    for (const ratio of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => estimateContextTokens(history, { counter, ratio })).toThrow(InvalidSettingsError);
    }
    expect(() =>
      estimateContextTokens(history, { counter, lastUsage: { inputTokens: Number.NaN, messageCount: 1 } }),
    ).toThrow(/lastUsage\.inputTokens/);
    expect(() =>
      estimateContextTokens(history, { counter, lastUsage: { inputTokens: 10, messageCount: 1.5 } }),
    ).toThrow(/lastUsage\.messageCount/);
  });
});
