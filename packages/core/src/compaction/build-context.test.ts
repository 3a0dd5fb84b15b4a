import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import {
  buildContext,
  MISSING_RESULT_OUTPUT,
  PRUNED_OUTPUT_MARKER,
  repairToolPairs,
  SUMMARY_ACKNOWLEDGEMENT,
  SUMMARY_PREFIX,
  SUMMARY_SUFFIX,
} from './build-context.js';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from './compaction-state.js';

function stateFor(history: Message[], firstKeptIndex: number, extra: Partial<CompactionState> = {}): CompactionState {
  return {
    schema: COMPACTION_STATE_SCHEMA,
    version: 1,
    summary: 'SUMMARY',
    firstKeptMessageId: history[firstKeptIndex]!.id,
    summarizedRange: { fromIndex: 0, toIndex: firstKeptIndex - 1, messageCount: firstKeptIndex },
    prunedToolCallIds: [],
    fileOps: { read: [], modified: [] },
    tokensBefore: 100,
    tokensAfter: 50,
    strategy: 'structured',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('buildContext', () => {
  it('returns the history unchanged without a state', () => {
    const c = conversation();
    const history = [c.user('a'), c.assistant('b')];
    expect(buildContext(history, undefined)).toEqual(history);
  });

  it('puts pinned messages first, then the summary and an acknowledgement, then the kept messages unchanged', () => {
    const c = conversation();
    const history = [
      c.system('rules'),
      c.user('old'),
      c.assistant('old answer'),
      c.user('new'),
      c.assistant('new answer'),
    ];
    const context = buildContext(history, stateFor(history, 3));
    expect(context.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(context[0]).toBe(history[0]);
    expect(context[1]!.parts[0]).toMatchObject({ type: 'text', text: expect.stringContaining('SUMMARY') });
    expect(context[1]!.metadata?.compaction).toMatchObject({ type: 'summary', version: 1 });
    expect(context[2]!.parts[0]).toEqual({ type: 'text', text: SUMMARY_ACKNOWLEDGEMENT });
    expect(context[3]).toBe(history[3]);
    expect(context[4]).toBe(history[4]);
  });

  it('skips the acknowledgement when the kept range starts with an assistant message', () => {
    const c = conversation();
    const history = [c.user('old'), c.assistant('kept'), c.user('new')];
    const context = buildContext(history, stateFor(history, 1));
    expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(context[1]).toBe(history[1]);
  });

  it('shows a marker instead of pruned tool outputs and leaves the history untouched', () => {
    const c = conversation();
    const step = c.toolStep([{ name: 'read', input: { path: 'a' }, output: 'long output' }]);
    const history = [c.user('q'), ...step, c.assistant('done')];
    const callId = (step[0]!.parts[0] as { toolCallId: string }).toolCallId;
    const context = buildContext(history, stateFor(history, 0, { summary: '', prunedToolCallIds: [callId] }));
    expect(context[2]!.parts[0]).toMatchObject({ type: 'tool-result', output: PRUNED_OUTPUT_MARKER });
    expect(history[2]!.parts[0]).toMatchObject({ output: 'long output' });
  });

  it('throws a typed error when the state does not belong to the history', () => {
    const c = conversation();
    const history = [c.user('a')];
    const state = { ...stateFor(history, 0), firstKeptMessageId: 'missing' };
    expect(() => buildContext(history, state)).toThrow(/not in the history/);
  });
});

describe('repairToolPairs', () => {
  it('gives a dangling tool call a synthetic result so the context never ends on it', () => {
    const c = conversation();
    const [call] = c.toolStep([{ name: 'bash', input: { command: 'ls' }, output: 'x' }]);
    const repaired = repairToolPairs([c.user('run ls'), call!]);
    expect(repaired).toHaveLength(3);
    expect(repaired[2]).toMatchObject({
      role: 'tool',
      parts: [{ type: 'tool-result', toolName: 'bash', output: MISSING_RESULT_OUTPUT, isError: true }],
    });
  });

  it('drops an orphan tool result and a message it leaves empty', () => {
    const c = conversation();
    const [, result] = c.toolStep([{ name: 'bash', input: {}, output: 'x' }]);
    const history = [c.user('q'), result!, c.assistant('a')];
    expect(repairToolPairs(history).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('returns the same array when everything pairs', () => {
    const c = conversation();
    const history = [c.user('q'), ...c.toolStep([{ name: 'bash', input: {}, output: 'x' }])];
    expect(repairToolPairs(history)).toBe(history);
  });
});

describe('summaryMessage framing', () => {
  it('text in a summary cannot close the summary early, in any spelling', () => {
    const markers = fc.tuple(
      fc.constantFrom('[', '[ '),
      fc.constantFrom('End of summary', 'end  of SUMMARY', 'Conversation summary', 'CONVERSATION SUMMARY'),
      fc.constantFrom(']', ' ]'),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            markers.map((parts) => parts.join('')),
          ),
          { maxLength: 8 },
        ),
        (pieces) => {
          const history: Message[] = [
            { id: 'u0', role: 'user', parts: [{ type: 'text', text: 'old' }] },
            { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'new' }] },
          ];
          const [message] = buildContext(history, stateFor(history, 1, { summary: `## Goal\n${pieces.join('\n')}` }));
          const text = message!.parts[0]!.type === 'text' ? message!.parts[0]!.text : '';
          expect(text.match(/\[\s*end\s+of\s+summary\s*\]/gi)).toHaveLength(1);
          expect(text.match(/\[\s*conversation\s+summary\s*\]/gi)).toHaveLength(1);
          expect(text.startsWith(SUMMARY_PREFIX)).toBe(true);
          expect(text.endsWith(SUMMARY_SUFFIX)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
