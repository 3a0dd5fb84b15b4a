import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordingSummarizer } from '../../test/builders.js';
import { buildContext } from '../compaction/build-context.js';
import { compactWith } from '../compaction/compact-with.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createContextCache } from './context-cache.js';
import { createConversationState } from './conversation-state.js';

type Step =
  | { kind: 'turn'; calls: number; answered: boolean; size: number }
  | { kind: 'compact' }
  | { kind: 'replace'; keep: number }
  | { kind: 'result-first' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('turn' as const),
      calls: fc.nat({ max: 2 }),
      answered: fc.boolean(),
      size: fc.integer({ min: 10, max: 2_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('compact' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), keep: fc.nat({ max: 30 }) }) },
  // A tool result stored before its call (r16), each appended on its own.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('result-first' as const) }) },
);

describe('createContextCache', () => {
  it('property: the incremental context always equals buildContext(history, state), whatever the order of appends, compactions, unanswered calls and replacements', async () => {
    let n = 0;
    const id = (prefix: string) => {
      n += 1;
      return `${prefix}${n}`;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 25 }), async (steps) => {
        const conv = createConversationState();
        const cache = createContextCache(conv);
        for (const step of steps) {
          if (step.kind === 'turn') {
            const turn: Message[] = [
              { id: id('u'), role: 'user', parts: [{ type: 'text', text: 'x'.repeat(step.size) }] },
            ];
            const callIds = Array.from({ length: step.calls }, () => id('call'));
            if (callIds.length > 0) {
              turn.push({
                id: id('a'),
                role: 'assistant',
                parts: callIds.map((toolCallId) => ({
                  type: 'tool-call' as const,
                  toolCallId,
                  toolName: 'read',
                  input: {},
                })),
              });
              if (step.answered) {
                turn.push({
                  id: id('t'),
                  role: 'tool',
                  parts: callIds.map((toolCallId) => ({
                    type: 'tool-result' as const,
                    toolCallId,
                    toolName: 'read',
                    output: 'o'.repeat(step.size),
                  })),
                });
              }
            }
            conv.apply({ append: turn });
          } else if (step.kind === 'result-first') {
            const toolCallId = id('call');
            conv.apply({
              append: [
                {
                  id: id('t'),
                  role: 'tool',
                  parts: [{ type: 'tool-result', toolCallId, toolName: 'read', output: 'early result' }],
                },
              ],
            });
            expect(cache.current()).toEqual(buildContext(conv.history, conv.record.state));
            conv.apply({
              append: [
                {
                  id: id('a'),
                  role: 'assistant',
                  parts: [{ type: 'tool-call', toolCallId, toolName: 'read', input: {} }],
                },
              ],
            });
          } else if (step.kind === 'compact') {
            const result = await compactWith(conv.history.slice(), {
              previous: conv.record.state,
              summarizer: recordingSummarizer(),
              settings: resolveSettings(
                { contextWindow: 8_000, keepRecentTokens: 1_000, reserveTokens: 1_000, minMessages: 0 },
                8_000,
              ),
              counting: { counter: heuristicCounter() },
              force: true,
            }).catch(() => undefined);
            if (result) conv.apply({ record: { state: result.state } });
          } else {
            conv.apply({ replace: conv.history.slice(0, step.keep), record: {} });
          }
          expect(cache.current()).toEqual(buildContext(conv.history, conv.record.state));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('grows its array in place when messages are appended (no copy of the context per call)', () => {
    const conv = createConversationState();
    const cache = createContextCache(conv);
    const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: id }] });
    conv.apply({ append: [message('a'), message('b')] });
    const first = cache.current();
    const copy = first.slice();
    conv.apply({ append: [message('c')] });
    const grown = cache.current();
    expect(grown).toBe(first);
    expect(grown).toEqual(buildContext(conv.history, conv.record.state));
    expect(copy.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('returns the same array while nothing changed, and a new one after a replacement of the same length', () => {
    const conv = createConversationState();
    const cache = createContextCache(conv);
    const a: Message = { id: 'a', role: 'user', parts: [{ type: 'text', text: 'a' }] };
    const b: Message = { id: 'b', role: 'user', parts: [{ type: 'text', text: 'b' }] };
    conv.apply({ append: [a] });
    const first = cache.current();
    expect(cache.current()).toBe(first);
    conv.apply({ replace: [b] });
    expect(cache.current().map((m) => m.id)).toEqual(['b']);
  });
});
