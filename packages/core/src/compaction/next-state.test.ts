import { describe, expect, it } from 'vitest';
import { COMPACTION_STATE_SCHEMA } from './compaction-state.js';
import { type NextStateFields, nextState } from './next-state.js';

const fields: NextStateFields = {
  version: 2,
  summary: 'S',
  firstKeptMessageId: 'm4',
  summarizedRange: { fromIndex: 0, toIndex: 3, messageCount: 4 },
  prunedToolCallIds: [],
  fileOps: { read: [], modified: [] },
  tokensBefore: 900,
  strategy: 'structured',
  createdAt: '2026-11-25T00:00:00.000Z',
};

describe('nextState', () => {
  it('measures the complete state once and returns a new object with its tokensAfter', () => {
    const measured: unknown[] = [];
    const state = nextState(fields, (draft) => {
      measured.push(draft);
      return 321;
    });
    expect(state).toEqual({ schema: COMPACTION_STATE_SCHEMA, ...fields, tokensAfter: 321 });
    expect(measured).toHaveLength(1);
    expect(measured[0]).not.toBe(state);
    expect((measured[0] as { tokensAfter: number }).tokensAfter).toBe(900);
  });
});
