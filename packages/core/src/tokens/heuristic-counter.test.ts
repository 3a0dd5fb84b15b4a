import { describe, expect, it } from 'vitest';
import { heuristicCounter } from './heuristic-counter.js';

describe('heuristicCounter', () => {
  it('counts ceil(chars / charsPerToken)', () => {
    expect(heuristicCounter().countText('')).toBe(0);
    expect(heuristicCounter().countText('hello world')).toBe(3);
    expect(heuristicCounter(2).countText('abcde')).toBe(3);
  });

  it('rejects a non-positive ratio with a message naming the setting', () => {
    expect(() => heuristicCounter(0)).toThrow(/charsPerToken must be a positive number/);
  });
});
