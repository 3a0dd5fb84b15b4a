import { describe, expect, it } from 'vitest';
import { InvalidUsageError } from '../errors/invalid-usage-error.js';
import { checkUsage, MIN_CALIBRATION_GROWTH, nextUsageRecord, type PreparedCall } from './next-usage-record.js';

const call = (counted: number, extra: Partial<PreparedCall> = {}): PreparedCall => ({
  historyLength: 4,
  contextMessageCount: 4,
  stateVersion: 0,
  counted,
  lastMessageId: 'm3',
  ...extra,
});

describe('checkUsage', () => {
  it('accepts finite counts >= 0 and absent fields', () => {
    expect(checkUsage({ inputTokens: 0, outputTokens: 12 })).toEqual({ inputTokens: 0, outputTokens: 12 });
    expect(checkUsage({})).toEqual({});
  });

  it.each([
    ['inputTokens', Number.POSITIVE_INFINITY, /Infinity/],
    ['inputTokens', '5000', /"5000"/],
    ['inputTokens', Number.NaN, /NaN/],
    ['inputTokens', -3, /-3/],
    ['outputTokens', null, /null/],
  ])('%s = %s is an InvalidUsageError naming the field and the value', (field, value, shown) => {
    const error = (() => {
      try {
        checkUsage({ [field]: value });
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidUsageError.isInstance(error)).toBe(true);
    expect((error as InvalidUsageError).field).toBe(field);
    expect((error as Error).message).toMatch(shown);
  });

  it('a report that is not an object is refused', () => {
    expect(() => checkUsage(5000)).toThrow(/must be an object/);
    expect(() => checkUsage(null)).toThrow(/must be an object/);
  });
});

describe('nextUsageRecord', () => {
  it('binds the usage to the history the call was prepared from', () => {
    const record = nextUsageRecord({}, call(900), 1_000, 'gpt');
    expect(record.usage).toEqual({
      inputTokens: 1_000,
      contextMessageCount: 4,
      historyLength: 4,
      stateVersion: 0,
      countedTokens: 900,
      lastMessageId: 'm3',
    });
    expect(record.calibration).toBeUndefined();
  });

  it('learns the ratio from growth on the same version only, and only past the minimum growth', () => {
    const first = nextUsageRecord({}, call(1_000), 1_500, 'gpt');
    const small = nextUsageRecord(first, call(1_000 + MIN_CALIBRATION_GROWTH - 1), 2_000, 'gpt');
    expect(small.calibration).toBeUndefined();
    const grown = nextUsageRecord(first, call(3_000, { historyLength: 8 }), 3_700, 'gpt');
    expect(grown.calibration?.gpt).toBeGreaterThan(1);
    const otherVersion = nextUsageRecord(first, call(3_000, { stateVersion: 1 }), 3_700, 'gpt');
    expect(otherVersion.calibration).toBeUndefined();
  });
});
