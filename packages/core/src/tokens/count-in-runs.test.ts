import { describe, expect, it } from 'vitest';
import { countInRuns, MAX_RUN_CHARS } from './count-in-runs.js';

describe('countInRuns', () => {
  const pieces = (text: string) => {
    const seen: string[] = [];
    countInRuns(text, (piece) => {
      seen.push(piece);
      return piece.length;
    });
    return seen;
  };

  it('counts ordinary text in one call', () => {
    expect(pieces('hello world, 123 and more')).toEqual(['hello world, 123 and more']);
  });

  it('slices long runs of letters, spaces and symbols, keeping every character', () => {
    for (const char of ['x', ' ', '=', '漢']) {
      const text = `before ${char.repeat(MAX_RUN_CHARS * 2 + 7)} after`;
      const seen = pieces(text);
      expect(seen.join('')).toBe(text);
      expect(Math.max(...seen.map((piece) => piece.length))).toBeLessThanOrEqual(MAX_RUN_CHARS + 8);
      expect(seen.length).toBeGreaterThan(2);
    }
  });

  it('does not slice digits (encoders split them into short groups already)', () => {
    expect(pieces('1'.repeat(MAX_RUN_CHARS * 2))).toHaveLength(1);
  });
});
