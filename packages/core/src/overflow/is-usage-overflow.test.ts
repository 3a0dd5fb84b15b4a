import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { isUsageOverflow } from './is-usage-overflow.js';

describe('isUsageOverflow', () => {
  it('is true when reported input reaches the window', () => {
    expect(isUsageOverflow({ inputTokens: 131_072 }, 131_072)).toBe(true);
    expect(isUsageOverflow({ inputTokens: 140_000 }, 131_072)).toBe(true);
    expect(isUsageOverflow({ inputTokens: 131_071 }, 131_072)).toBe(false);
  });

  it('is false without usable usage', () => {
    expect(isUsageOverflow({}, 8_192)).toBe(false);
    expect(isUsageOverflow(undefined, 8_192)).toBe(false);
    expect(isUsageOverflow({ inputTokens: Number.NaN }, 8_192)).toBe(false);
  });

  it('rejects a window that is not a positive number', () => {
    expect(() => isUsageOverflow({ inputTokens: 1 }, 0)).toThrow(InvalidSettingsError);
    expect(() => isUsageOverflow({ inputTokens: 1 }, Number.NaN)).toThrow(/contextWindow/);
  });
});
