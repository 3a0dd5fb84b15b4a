import { describe, expect, it } from 'vitest';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from '../compaction/compaction-state.js';
import { InvalidStateError } from '../errors/index.js';
import { validateCompactionState, validateSessionRecord } from './validate-record.js';

const state: CompactionState = {
  schema: COMPACTION_STATE_SCHEMA,
  version: 2,
  summary: '## Goal\nFix the parser',
  firstKeptMessageId: 'm-40',
  summarizedRange: { fromIndex: 0, toIndex: 39, messageCount: 40 },
  prunedToolCallIds: ['call-1'],
  fileOps: { read: ['a.ts'], modified: ['b.ts'] },
  tokensBefore: 150_000,
  tokensAfter: 30_000,
  strategy: 'llm',
  createdAt: '2025-01-02T03:04:05.000Z',
};

function problemOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(InvalidStateError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected an InvalidStateError');
}

describe('validateCompactionState', () => {
  it('returns a valid state unchanged, extra fields kept', () => {
    const withExtra = { ...state, futureField: 1 };
    expect(validateCompactionState(withExtra, 'x')).toBe(withExtra);
  });

  it('refuses a state from a newer schema, saying to upgrade', () => {
    const message = problemOf(() =>
      validateCompactionState({ ...state, schema: COMPACTION_STATE_SCHEMA + 1 }, 'f.json'),
    );
    expect(message).toMatch(
      /^f\.json: state\.schema is 3, but this version of @compaction\/core reads schema 2 at most/,
    );
    expect(message).toMatch(/Upgrade @compaction\/core/);
  });

  it.each([
    ['schema', 0, /state\.schema must be a positive integer, got 0/],
    ['version', 0, /state\.version must be 1 or more/],
    ['version', 1.5, /state\.version must be a non-negative integer, got 1\.5/],
    ['summary', 42, /state\.summary must be a string, got 42/],
    ['firstKeptMessageId', undefined, /state\.firstKeptMessageId must be a string, got nothing/],
    ['summarizedRange', { fromIndex: 0, toIndex: -1, messageCount: 3 }, /state\.summarizedRange\.toIndex/],
    ['prunedToolCallIds', [1], /state\.prunedToolCallIds must be an array of strings/],
    ['fileOps', { read: [] }, /state\.fileOps\.modified must be an array of strings/],
    ['tokensAfter', -1, /state\.tokensAfter must be a non-negative number/],
    ['strategy', '', /state\.strategy must not be empty/],
    ['createdAt', 'yesterday', /state\.createdAt must be an ISO 8601 time/],
  ])('names the bad field %s and what to do', (field, value, pattern) => {
    const message = problemOf(() => validateCompactionState({ ...state, [field]: value }, 'store/s.state.json'));
    expect(message).toMatch(/^store\/s\.state\.json: /);
    expect(message).toMatch(pattern);
    expect(message).toMatch(/delete the stored record/);
  });

  it('refuses a non-object', () => {
    expect(problemOf(() => validateCompactionState([], 'k'))).toMatch(/state must be an object, got \[\]/);
  });
});

describe('validateSessionRecord', () => {
  it('accepts an empty record and a full one', () => {
    expect(validateSessionRecord({})).toEqual({});
    const record = {
      state,
      usage: { inputTokens: 1200, contextMessageCount: 10, historyLength: 50, stateVersion: 2 },
      calibration: { 'gpt-4o': 1.08 },
    };
    expect(validateSessionRecord(record, 'x')).toBe(record);
  });

  it('checks the state, usage and calibration inside', () => {
    expect(problemOf(() => validateSessionRecord({ state: { ...state, summary: null } }))).toMatch(/state\.summary/);
    expect(problemOf(() => validateSessionRecord({ usage: { inputTokens: 5 } }))).toMatch(/usage\.contextMessageCount/);
    expect(problemOf(() => validateSessionRecord({ calibration: { m: 0 } }))).toMatch(/calibration\["m"\]/);
    expect(problemOf(() => validateSessionRecord('text'))).toMatch(/record must be an object/);
  });

  it('accepts a usage record whose count lags its call, and refuses its fields half given, beside countedTokens, or out of range', () => {
    const usage = { inputTokens: 1_900, contextMessageCount: 6, historyLength: 6, stateVersion: 0 };
    const stretch = { countedPrefixTokens: 1_000, countedLength: 4, countedInputTokens: 1_500, reportsSinceCounted: 2 };
    const lagging = { usage: { ...usage, ...stretch } };
    expect(validateSessionRecord(lagging, 'x')).toBe(lagging);
    // An adapter that rewrote its history may have moved historyLength below it: kept (read as no count).
    expect(validateSessionRecord({ usage: { ...usage, ...stretch, historyLength: 3 } })).toBeDefined();
    for (const key of Object.keys(stretch) as (keyof typeof stretch)[]) {
      const { [key]: _left, ...half } = stretch;
      expect(problemOf(() => validateSessionRecord({ usage: { ...usage, ...half } }, 'x'))).toContain(`usage.${key}`);
    }
    // countedTokens says the whole call was counted (what a release before the lagging count reads): not beside a lag.
    expect(problemOf(() => validateSessionRecord({ usage: { ...usage, ...stretch, countedTokens: 1_000 } }))).toMatch(
      /usage\.countedTokens covers the whole call/,
    );
    expect(problemOf(() => validateSessionRecord({ usage: { ...usage, ...stretch, countedLength: -1 } }))).toMatch(
      /usage\.countedLength must be a non-negative integer/,
    );
    expect(
      problemOf(() => validateSessionRecord({ usage: { ...usage, ...stretch, countedInputTokens: '5' } })),
    ).toMatch(/usage\.countedInputTokens must be a non-negative number/);
    expect(
      problemOf(() => validateSessionRecord({ usage: { ...usage, ...stretch, countedPrefixTokens: -3 } })),
    ).toMatch(/usage\.countedPrefixTokens must be a non-negative number/);
    expect(problemOf(() => validateSessionRecord({ usage: { ...usage, ...stretch, reportsSinceCounted: 0 } }))).toMatch(
      /usage\.reportsSinceCounted must be 1 or more/,
    );
  });
});
