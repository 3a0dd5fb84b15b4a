import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidUsageError } from '../errors/invalid-usage-error.js';
import type { SessionRecord } from '../store/session-store.js';
import {
  carriesCount,
  checkUsage,
  countedPair,
  MIN_CALIBRATION_GROWTH,
  nextUsageRecord,
  type PreparedCall,
  settledUsageRecord,
} from './next-usage-record.js';

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

  it.each([
    ['input_tokens', 'inputTokens'],
    ['prompt_tokens', 'inputTokens'],
    ['promptTokens', 'inputTokens'],
    ['output_tokens', 'outputTokens'],
    ['completion_tokens', 'outputTokens'],
    ['completionTokens', 'outputTokens'],
  ])("a figure under another API's name (%s) in a report without ours is refused, naming ours", (foreign, ours) => {
    const error = (() => {
      try {
        checkUsage({ [foreign]: 1_200 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidUsageError.isInstance(error)).toBe(true);
    expect((error as InvalidUsageError).field).toBe(foreign);
    expect((error as Error).message).toContain(`{ ${ours}: 1200 }`);
  });

  it('keeps a report that gives our names beside others (the AI SDK usage object, a provider payload spread in)', () => {
    const aiSdkUsage = { inputTokens: 1_200, outputTokens: 30, totalTokens: 1_230, reasoningTokens: 0 };
    expect(checkUsage(aiSdkUsage)).toBe(aiSdkUsage);
    expect(checkUsage({ inputTokens: 900, input_tokens: 900, output_tokens: 4 })).toEqual({
      inputTokens: 900,
      input_tokens: 900,
      output_tokens: 4,
    });
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

describe('a call far below the trigger (its count not taken)', () => {
  const lagging = (length: number, extra: Partial<PreparedCall> = {}) =>
    call(undefined as unknown as number, { historyLength: length, lastMessageId: `m${length - 1}`, ...extra });

  it('carries the previous exact pair forward, with the provider figure and length of its own call', () => {
    const exact = nextUsageRecord({}, call(1_000), 1_500, 'gpt');
    const first = nextUsageRecord(exact, { ...lagging(6), counted: undefined }, 1_900, 'gpt');
    expect(first.usage).toEqual({
      inputTokens: 1_900,
      contextMessageCount: 4,
      historyLength: 6,
      stateVersion: 0,
      // Not countedTokens: the previous release would read it as a count of all six messages.
      countedPrefixTokens: 1_000,
      countedLength: 4,
      countedInputTokens: 1_500,
      reportsSinceCounted: 1,
      lastMessageId: 'm5',
    });
    const second = nextUsageRecord(first, { ...lagging(9), counted: undefined }, 2_600, 'gpt');
    expect(second.usage).toMatchObject({
      inputTokens: 2_600,
      historyLength: 9,
      countedLength: 4,
      reportsSinceCounted: 2,
    });
    expect(countedPair(second.usage)).toEqual({ length: 4, tokens: 1_000, inputTokens: 1_500, reports: 2 });
    // It learns nothing: no count of its own.
    expect(second.calibration).toBeUndefined();
  });

  it('is exact again over the same messages as the pair, and has no count without a pair to carry', () => {
    const exact = nextUsageRecord({}, call(1_000), 1_500, 'gpt');
    const again = nextUsageRecord(exact, { ...lagging(4), counted: undefined }, 1_520, 'gpt');
    expect(again.usage).toEqual({ ...exact.usage, inputTokens: 1_520 });
    const otherVersion = nextUsageRecord(exact, { ...lagging(6, { stateVersion: 1 }), counted: undefined }, 900, 'gpt');
    expect(otherVersion.usage?.countedTokens).toBeUndefined();
    expect(otherVersion.usage?.countedLength).toBeUndefined();
    const history = Array.from({ length: 6 }, (_, index) => ({ id: `m${index}`, role: 'user' as const, parts: [] }));
    expect(carriesCount(exact.usage, history, 6, 1)).toBe(false);
    expect(carriesCount(exact.usage, history, 6, 0)).toBe(true);
    expect(carriesCount(exact.usage, history, 3, 0)).toBe(false);
    expect(carriesCount(undefined, history, 6, 0)).toBe(false);
    // A branch of the same length whose message at the record's place is another: not this history's count.
    const branch = history.map((message, index) => (index === 3 ? { ...message, id: 'other' } : message));
    expect(carriesCount(exact.usage, branch, 6, 0)).toBe(false);
  });

  it('takes a count whose length lies past its historyLength (a rewritten history) as no count', () => {
    const usage = { inputTokens: 900, contextMessageCount: 3, historyLength: 3, stateVersion: 0, countedTokens: 800 };
    expect(
      countedPair({ ...usage, countedLength: 5, countedInputTokens: 950, reportsSinceCounted: 1 }),
    ).toBeUndefined();
    expect(countedPair(usage)).toEqual({ length: 3, tokens: 800, inputTokens: 900, reports: 0 });
  });

  /** Our count after each call, and the provider's figure: ratio × count + a fixed overhead, rounded. */
  const figures = (growths: readonly number[], ratio: number, overhead: number) => {
    let counted = 0;
    return growths.map((growth) => {
      counted += growth;
      return { counted, reported: Math.round(counted * ratio) + overhead };
    });
  };

  it('learns from a caught-up stretch what exact per-call counts learn over it, when each call grows ≥ MIN_CALIBRATION_GROWTH', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: MIN_CALIBRATION_GROWTH, max: 6_000 }), { minLength: 2, maxLength: 30 }),
        fc.double({ min: 0.6, max: 1.9, noNaN: true }),
        fc.integer({ min: 0, max: 8_000 }),
        fc.option(fc.double({ min: 0.5, max: 2, noNaN: true }), { nil: undefined }),
        fc.boolean(),
        (growths, ratio, overhead, learnedBefore, settleAtEnd) => {
          const calls = figures(growths, ratio, overhead);
          const start: SessionRecord = learnedBefore === undefined ? {} : { calibration: { gpt: learnedBefore } };
          const at = (index: number, counted: number | undefined): PreparedCall =>
            call(counted as number, { historyLength: index + 1, lastMessageId: `m${index}` });
          // Every call counted.
          let eager = start;
          for (const [index, { counted, reported }] of calls.entries())
            eager = nextUsageRecord(eager, at(index, counted), reported, 'gpt');
          // The first counted, the ones after far below the trigger, the stretch caught up at the end:
          // by the last call's exact count, or by settling its lagging record before a decision.
          let lazy = nextUsageRecord(start, at(0, calls[0]!.counted), calls[0]!.reported, 'gpt');
          for (let index = 1; index < calls.length; index += 1) {
            const last = index === calls.length - 1 && !settleAtEnd;
            lazy = nextUsageRecord(
              lazy,
              at(index, last ? calls[index]!.counted : undefined),
              calls[index]!.reported,
              'gpt',
            );
          }
          if (settleAtEnd) lazy = settledUsageRecord(lazy, calls.at(-1)!.counted, 'gpt');
          expect(lazy.usage).toEqual(eager.usage);
          // Within rounding: each per-call sample is off the steady ratio by at most 1 / its growth.
          expect(lazy.calibration!.gpt).toBeCloseTo(eager.calibration!.gpt!, 2);
          expect(Math.abs(lazy.calibration!.gpt! - eager.calibration!.gpt!)).toBeLessThanOrEqual(
            2 / MIN_CALIBRATION_GROWTH,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes at most one sample per MIN_CALIBRATION_GROWTH counted over a stretch of small calls', () => {
    const exact = nextUsageRecord({ calibration: { gpt: 1 } }, call(1_000), 1_000, 'gpt');
    let record = exact;
    for (let index = 5; index < 15; index += 1)
      record = nextUsageRecord(
        record,
        { ...call(0), historyLength: index, counted: undefined },
        1_000 + (index - 4) * 200,
        'gpt',
      );
    // Ten calls grew 100 counted each (1,000 in all; 2,000 reported): two samples' weight, not ten.
    const settled = settledUsageRecord(record, 2_000, 'gpt');
    expect(settled.calibration?.gpt).toBeCloseTo(1 + (1 - 0.7 ** 2) * (2 - 1), 10);
    expect(settled.usage).toMatchObject({ countedTokens: 2_000, historyLength: 14 });
    expect(settled.usage?.countedLength).toBeUndefined();
  });
});
