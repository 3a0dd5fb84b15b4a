import { describe, expect, it } from 'vitest';
import { costUnits, recordedBilledTokens } from './cost-units.js';

describe('costUnits', () => {
  it('weighs input ×1, cache write ×1.25, cache read ×0.1, output ×5', () => {
    expect(costUnits({ input: 10, cacheWrite: 1_000, cacheRead: 10_000, output: 100 })).toBe(10 + 1_250 + 1_000 + 500);
  });

  it('reads a recorded call by kind of token', () => {
    const usage = { inputTokens: 3, cacheCreationInputTokens: 2_487, cacheReadInputTokens: 166_758, outputTokens: 40 };
    expect(recordedBilledTokens(usage)).toEqual({ input: 3, cacheWrite: 2_487, cacheRead: 166_758, output: 40 });
  });
});
