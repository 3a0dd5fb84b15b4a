import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from '../compaction/compaction-state.js';
import { keepsStoredState } from './keeps-stored-state.js';
import type { SessionRecord } from './session-store.js';

const stateArbitrary: fc.Arbitrary<CompactionState> = fc
  .record({
    version: fc.integer({ min: 1, max: 1_000 }),
    summary: fc.string({ unit: 'grapheme', maxLength: 60 }),
    kept: fc.string({ minLength: 1, maxLength: 8 }),
    toIndex: fc.nat(500),
    pruned: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 3 }),
    read: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
    tokensAfter: fc.nat(10_000),
  })
  .map(({ version, summary, kept, toIndex, pruned, read, tokensAfter }) => ({
    schema: COMPACTION_STATE_SCHEMA,
    version,
    summary,
    firstKeptMessageId: kept,
    summarizedRange: { fromIndex: 0, toIndex, messageCount: toIndex + 1 },
    prunedToolCallIds: pruned,
    fileOps: { read, modified: [] },
    tokensBefore: tokensAfter + 1_000,
    tokensAfter,
    strategy: 'structured',
    createdAt: new Date(version * 1_000).toISOString(),
  }));

/** What a save may change without touching the state: usage, calibration, the loop guard's mark, the revision. */
const hintsArbitrary = fc.record(
  {
    revision: fc.nat(),
    usage: fc.record({
      inputTokens: fc.nat(1_000_000),
      contextMessageCount: fc.nat(10_000),
      historyLength: fc.nat(10_000),
      stateVersion: fc.nat(1_000),
    }),
    stuckAtHistoryLength: fc.nat(10_000),
    calibration: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.double({ min: 0.5, max: 2, noNaN: true })),
  },
  { requiredKeys: [] },
);

/** One field of the state changed to another value. */
const changedState = (state: CompactionState, field: number): CompactionState => {
  switch (field % 5) {
    case 0:
      return { ...state, version: state.version + 1 };
    case 1:
      return { ...state, summary: `${state.summary}.` };
    case 2:
      return { ...state, firstKeptMessageId: `${state.firstKeptMessageId}x` };
    case 3:
      return { ...state, prunedToolCallIds: [...state.prunedToolCallIds, 'call'] };
    default:
      return { ...state, fileOps: { ...state.fileOps, modified: ['b.ts'] } };
  }
};

describe('keepsStoredState', () => {
  it('is true when only the hints differ (usage, calibration, the loop guard, the revision)', () => {
    fc.assert(
      fc.property(stateArbitrary, hintsArbitrary, hintsArbitrary, (state, before, after) => {
        const stored: SessionRecord = { ...before, state };
        expect(keepsStoredState(stored, { ...after, state: structuredClone(state) })).toBe(true);
      }),
    );
  });

  it('is false when any field of the state changes, or a state appears or goes', () => {
    fc.assert(
      fc.property(stateArbitrary, hintsArbitrary, fc.nat(), (state, hints, field) => {
        expect(keepsStoredState({ ...hints, state }, { ...hints, state: changedState(state, field) })).toBe(false);
        expect(keepsStoredState({ ...hints }, { ...hints, state })).toBe(false);
        expect(keepsStoredState(undefined, { ...hints, state })).toBe(false);
        expect(keepsStoredState({ ...hints, state }, { ...hints })).toBe(false);
      }),
    );
  });

  it('is true between records without a state, and over no record at all', () => {
    expect(
      keepsStoredState(undefined, {
        usage: { inputTokens: 1, contextMessageCount: 1, historyLength: 1, stateVersion: 0 },
      }),
    ).toBe(true);
    expect(keepsStoredState({ stuckAtHistoryLength: 3 }, { calibration: { m: 1.1 } })).toBe(true);
  });

  it('counts a state in another key order as changed (the durable write)', () => {
    const [state] = fc.sample(stateArbitrary, { numRuns: 1, seed: 7 }) as [CompactionState];
    const { schema, ...rest } = state;
    expect(keepsStoredState({ state }, { state: { ...rest, schema } as CompactionState })).toBe(false);
  });
});
