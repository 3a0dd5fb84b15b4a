import { describe, expect, it } from 'vitest';
import { conversation, words } from '../../test/builders.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { countMessageTokens } from '../tokens/index.js';
import { buildContext } from './build-context.js';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from './compaction-state.js';
import { contextTokens } from './context-tokens.js';

const counter = heuristicCounter();

describe('contextTokens', () => {
  it('counts history messages with countTokens and the ones the context builder made with the counter', () => {
    const c = conversation();
    const history = [c.user(words(100)), c.assistant(words(50)), c.user(words(20)), c.assistant(words(10))];
    const state: CompactionState = {
      schema: COMPACTION_STATE_SCHEMA,
      version: 1,
      summary: `the summary ${words(30)}`,
      firstKeptMessageId: history[2]!.id,
      summarizedRange: { fromIndex: 0, toIndex: 1, messageCount: 2 },
      prunedToolCallIds: [],
      fileOps: { read: [], modified: [] },
      tokensBefore: 0,
      tokensAfter: 0,
      strategy: 'structured',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const seen: string[] = [];
    const countTokens = (message: (typeof history)[number]) => {
      seen.push(message.id);
      return 1_000;
    };
    const built = buildContext(history, state);
    const made = built.filter((message) => !history.includes(message));
    expect(made.length).toBeGreaterThan(0);
    const expected = 2 * 1_000 + made.reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
    expect(contextTokens(history, state, countTokens, counter)).toBe(expected);
    expect(seen).toEqual([history[2]!.id, history[3]!.id]);
    expect(contextTokens(history, undefined, () => 1, counter)).toBe(4);
  });
});
