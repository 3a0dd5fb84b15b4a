import { describe, expect, it } from 'vitest';
import { cachedPrefixTokens } from './cached-prefix-tokens.js';

const measure = (...messages: [string, number][]) => ({
  tokens: messages.reduce((sum, [, tokens]) => sum + tokens, 0),
  messages: messages.map(([key, tokens]) => ({ key, tokens })),
});

describe('cachedPrefixTokens', () => {
  it('counts the leading messages shared with the previous prompt', () => {
    const previous = measure(['system', 100], ['u1', 50], ['a1', 20]);
    expect(cachedPrefixTokens(previous, measure(['system', 100], ['u1', 50], ['a1', 20], ['u2', 30]))).toBe(170);
  });

  it('stops at the first changed message (a summary replacing history)', () => {
    const previous = measure(['system', 100], ['u1', 50], ['a1', 20]);
    expect(cachedPrefixTokens(previous, measure(['system', 100], ['summary', 40], ['a1', 20]))).toBe(100);
  });

  it('is 0 for the first call', () => {
    expect(cachedPrefixTokens(undefined, measure(['system', 100]))).toBe(0);
  });
});
