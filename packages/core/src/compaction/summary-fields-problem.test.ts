import { describe, expect, it } from 'vitest';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import { validateCompactionState } from '../store/validate-record.js';
import { COMPACTION_STATE_SCHEMA } from './compaction-state.js';
import { summaryFieldsProblem } from './summary-fields-problem.js';

const facts = {
  requests: ['a'],
  toolCounts: [['Bash', 2]],
  errors: [{ tool: 'Bash', resolved: true, text: 'x' }],
  commands: [{ tool: 'Bash', command: 'npm test', runs: 1, ok: true, isCheck: true, failing: [], failures: 0, at: 0 }],
  carried: [],
  summarizedMessages: 3,
};
const state = {
  schema: COMPACTION_STATE_SCHEMA,
  version: 1,
  summary: 'S',
  summaryParts: [{ kind: 'history', strategy: 'structured', text: 'S', facts, fileListing: 'full' }],
  lastRequest: 'go',
  firstKeptMessageId: 'm1',
  summarizedRange: { fromIndex: 0, toIndex: 0, messageCount: 1 },
  prunedToolCallIds: [],
  fileOps: { read: [], modified: [] },
  tokensBefore: 10,
  tokensAfter: 5,
  strategy: 'structured',
  createdAt: '2026-11-25T00:00:00.000Z',
};

describe('summaryFieldsProblem', () => {
  it('accepts well-formed fields, and their absence (schema 1)', () => {
    expect(summaryFieldsProblem(state)).toBeUndefined();
    const { summaryParts: _parts, lastRequest: _last, ...legacy } = state;
    expect(summaryFieldsProblem({ ...legacy, schema: 1 })).toBeUndefined();
  });

  it.each([
    [{ lastRequest: 5 }, 'state.lastRequest must be a string, got number'],
    [{ summaryParts: {} }, 'state.summaryParts must be an array, got object'],
    [{ summaryParts: [null] }, 'state.summaryParts[0] must be an object, got null'],
    [
      { summaryParts: [{ kind: 'middle', strategy: 's', text: '' }] },
      'state.summaryParts[0].kind must be "history" or "turn-prefix"',
    ],
    [
      { summaryParts: [{ kind: 'history', strategy: 's' }] },
      'state.summaryParts[0].text must be a string, got undefined',
    ],
    [
      { summaryParts: [{ kind: 'history', strategy: 's', text: '', verbatim: 'yes' }] },
      'state.summaryParts[0].verbatim must be a boolean',
    ],
    [
      { summaryParts: [{ kind: 'history', strategy: 's', text: '', fileListing: 'all' }] },
      'state.summaryParts[0].fileListing must be one of',
    ],
    [
      { summaryParts: [{ kind: 'history', strategy: 's', text: '', facts: { ...facts, requests: [1] } }] },
      'state.summaryParts[0].facts.requests must be an array of strings',
    ],
    [
      { summaryParts: [{ kind: 'history', strategy: 's', text: '', facts: { ...facts, toolCounts: { Bash: 2 } } }] },
      'facts.toolCounts must be an array of [tool, count] pairs',
    ],
    [
      { summaryParts: [{ kind: 'history', strategy: 's', text: '', facts: { ...facts, commands: [{}] } }] },
      'facts.commands must be an array of objects with a string command',
    ],
    [
      { summaryParts: [{ kind: 'history', strategy: 's', text: '', facts: { ...facts, summarizedMessages: -1 } }] },
      'facts.summarizedMessages must be a non-negative integer',
    ],
  ])('names the field at fault: %j', (fields, problem) => {
    expect(summaryFieldsProblem({ ...state, ...fields })).toContain(problem);
  });

  it('a store refuses such a state on load with an InvalidStateError naming the source', () => {
    const bad = { ...state, summaryParts: [{ kind: 'history', strategy: 's', text: 3 }] };
    expect(() => validateCompactionState(bad, 'f.json')).toThrow(InvalidStateError);
    expect(() => validateCompactionState(bad, 'f.json')).toThrow(
      /f\.json: state\.summaryParts\[0\]\.text must be a string/,
    );
  });
});
