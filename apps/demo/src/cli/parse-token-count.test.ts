import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { parseTokenCount } from './parse-token-count.js';

describe('parseTokenCount', () => {
  it('reads plain numbers, separators, k/M suffixes and fractions', () => {
    expect(['20000', '20_000', '20,000', '20k', '1.5M', '0.8'].map((value) => parseTokenCount('keep', value))).toEqual([
      20_000, 20_000, 20_000, 20_000, 1_500_000, 0.8,
    ]);
  });

  it('names the flag when the value is not a number', () => {
    expect(() => parseTokenCount('trigger', 'lots')).toThrow(CliError);
    expect(() => parseTokenCount('trigger', 'lots')).toThrow(
      '--trigger expects a number like 20000, 20k or 0.8, got "lots"',
    );
  });
});
