import { describe, expect, it } from 'vitest';
import { fitTokenScale, IDENTITY_SCALE } from './fit-token-scale.js';

describe('fitTokenScale', () => {
  it('recovers the overhead and ratio of exact points', () => {
    const points = [1_000, 20_000, 55_000, 90_000].map((counted) => ({ counted, recorded: 25_000 + 1.25 * counted }));
    expect(fitTokenScale(points)).toEqual({ overheadTokens: 25_000, tokenRatio: 1.25 });
  });

  it('is the identity without points, and the first difference with one', () => {
    expect(fitTokenScale([])).toEqual(IDENTITY_SCALE);
    expect(fitTokenScale([{ counted: 10, recorded: 25_882 }])).toEqual({ overheadTokens: 25_872, tokenRatio: 1 });
  });

  it('keeps the ratio within bounds and the overhead non-negative', () => {
    const steep = fitTokenScale([
      { counted: 100, recorded: 0 },
      { counted: 200, recorded: 10_000 },
    ]);
    expect(steep.tokenRatio).toBe(2.5);
    expect(steep.overheadTokens).toBeGreaterThanOrEqual(0);
  });
});
