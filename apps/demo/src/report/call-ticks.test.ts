import { describe, expect, it } from 'vitest';
import { callTicks } from './call-ticks.js';

describe('callTicks', () => {
  it('labels the first and last call and round steps between, at most about ten', () => {
    expect(callTicks(1)).toEqual([1]);
    expect(callTicks(2)).toEqual([1, 2]);
    expect(callTicks(26)).toEqual([1, 5, 10, 15, 20, 26]);
    expect(callTicks(152)).toEqual([1, 20, 40, 60, 80, 100, 120, 140, 152]);
  });

  it('keeps the ticks increasing, inside 1…calls and at most maxTicks + 2, for any length', () => {
    for (let calls = 1; calls <= 5_000; calls += 7) {
      const ticks = callTicks(calls);
      expect(ticks[0]).toBe(1);
      expect(ticks.at(-1)).toBe(calls);
      expect(ticks.length).toBeLessThanOrEqual(12);
      expect(new Set(ticks).size).toBe(ticks.length);
      for (let index = 1; index < ticks.length; index += 1) expect(ticks[index]!).toBeGreaterThan(ticks[index - 1]!);
    }
  });
});
