import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message, Part } from '../src/messages/types.js';
import { createCompactionSession } from '../src/session/create-compaction-session.js';
import type { CompactionEvent } from '../src/session/types.js';
import { memoryStore } from '../src/store/memory-store.js';
import type { Summarizer } from '../src/summarize/types.js';
import { heuristicCounter } from '../src/tokens/heuristic-counter.js';
import { checkPairs } from './session-steps.js';

/**
 * Shared by the invariant property tests. The six invariants of DESIGN.md, over generated conversations (random turns,
 * tool calls with results, parallel calls, reasoning, long outputs) run through
 * repeated compactions. NUM_RUNS × files ≥ 10,000 cases in the normal test run.
 */
export const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 2_500);
const ERROR_TEXT = 'SUMMARIZER-EXPLODED';

type TurnShape = {
  userChars: number;
  steps: { calls: { outputChars: number; isError: boolean }[]; reasoning: boolean; text: boolean }[];
  finalText: number;
  pinned: boolean;
};

export const turnArbitrary: fc.Arbitrary<TurnShape> = fc.record({
  userChars: fc.integer({ min: 1, max: 600 }),
  steps: fc.array(
    fc.record({
      calls: fc.array(
        fc.record({
          outputChars: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 200, max: 4_000 })),
          isError: fc.boolean(),
        }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      reasoning: fc.boolean(),
      text: fc.boolean(),
    }),
    { maxLength: 6 },
  ),
  finalText: fc.integer({ min: 0, max: 400 }),
  pinned: fc.boolean(),
});

function materialize(turns: TurnShape[], dangling: boolean): Message[] {
  const messages: Message[] = [
    { id: 'sys', role: 'system', parts: [{ type: 'text', text: 'You are a coding agent.' }] },
  ];
  let n = 0;
  const id = (prefix: string) => {
    n += 1;
    return `${prefix}${n}`;
  };
  for (const [turnIndex, turn] of turns.entries()) {
    messages.push({
      id: id('u'),
      role: 'user',
      parts: [{ type: 'text', text: `request ${turnIndex} ${'x'.repeat(turn.userChars)}` }],
      ...(turn.pinned && turnIndex % 7 === 3 ? { metadata: { pinned: true } } : {}),
    });
    for (const step of turn.steps) {
      const callIds = step.calls.map(() => id('call'));
      const parts: Part[] = [];
      if (step.reasoning) parts.push({ type: 'reasoning', text: 'thinking about it' });
      if (step.text) parts.push({ type: 'text', text: 'Let me look.' });
      for (const callId of callIds)
        parts.push({ type: 'tool-call', toolCallId: callId, toolName: 'read', input: { path: `f${callId}.ts` } });
      messages.push({ id: id('a'), role: 'assistant', parts });
      messages.push({
        id: id('t'),
        role: 'tool',
        parts: step.calls.map((call, index) => ({
          type: 'tool-result' as const,
          toolCallId: callIds[index]!,
          toolName: 'read',
          output: 'o'.repeat(call.outputChars),
          ...(call.isError ? { isError: true } : {}),
        })),
      });
    }
    if (turn.finalText > 0)
      messages.push({ id: id('a'), role: 'assistant', parts: [{ type: 'text', text: 'y'.repeat(turn.finalText) }] });
  }
  if (dangling) {
    messages.push({
      id: id('a'),
      role: 'assistant',
      parts: [{ type: 'tool-call', toolCallId: 'dangling', toolName: 'bash', input: {} }],
    });
  }
  return messages;
}

function summarizerFor(mode: number): Summarizer {
  return {
    name: 'llm',
    async summarize(request) {
      if (mode === 1 || (mode === 2 && request.messages.length % 3 === 0)) throw new Error(ERROR_TEXT);
      const previous = request.previousSummary ? `${request.previousSummary.slice(0, 200)}|` : '';
      return `${previous}${request.kind}:${request.messages.length}`;
    },
  };
}

export async function runCase(turns: TurnShape[], dangling: boolean, mode: number, window: number): Promise<void> {
  const history = materialize(turns, dangling);
  const store = memoryStore();
  const settings = {
    contextWindow: window,
    reserveTokens: Math.floor(window / 8),
    keepRecentTokens: Math.floor(window / 5),
    trigger: 0.6,
    minMessages: 3,
  };
  const events: CompactionEvent[] = [];
  const session = createCompactionSession({
    sessionId: 'p',
    store,
    settings,
    counter: heuristicCounter(),
    summarizer: summarizerFor(mode),
    onEvent: (e) => events.push(e),
  });
  const snapshot = structuredClone(history);
  for (const message of history) {
    await session.append(message);
    const startsBefore = events.filter((e) => e.type === 'compaction:start').length;
    const { messages: context } = await session.prepare();
    // 4. No loops: at most one attempt and one escalation per prepare.
    expect(events.filter((e) => e.type === 'compaction:start').length - startsBefore).toBeLessThanOrEqual(2);
    // 3. Tool calls and results always pair in the context.
    checkPairs(context);
    const state = await session.state();
    if (state) {
      // 2. Every message is in the summarized range or in the kept range.
      const all = await session.history();
      const firstKept = all.findIndex((m) => m.id === state.firstKeptMessageId);
      expect(firstKept).toBeGreaterThanOrEqual(0);
      if (state.strategy !== 'prune') expect(state.summarizedRange.messageCount).toBe(firstKept);
      const contextIds = new Set(context.map((m) => m.id));
      for (const message of all.slice(firstKept)) {
        const dropped = message.parts.every((p) => p.type === 'tool-result') && !contextIds.has(message.id);
        if (!dropped) expect(contextIds.has(message.id), `kept message ${message.id} missing from context`).toBe(true);
      }
      // 5. A failed summarization never stores its error as the summary.
      expect(state.summary).not.toContain(ERROR_TEXT);
    }
  }
  // 1. The display history is never modified.
  expect(await session.history()).toEqual(snapshot);
  expect(history).toEqual(snapshot);
  // 4. Every compaction made the context smaller.
  for (const event of events)
    if (event.type === 'compaction:end') expect(event.tokensAfter).toBeLessThan(event.tokensBefore);
  // 6. Reloading from the store yields the same context.
  const reloaded = createCompactionSession({ sessionId: 'p', store, settings, counter: heuristicCounter() });
  expect(await reloaded.context()).toEqual(await session.context());
}

/**
 * Declares the invariant property tests for the given context windows; the two
 * invariant files split the windows so that vitest runs them on both cores. On
 * failure fast-check prints the seed and the shrunk counterexample.
 */
export function describeInvariants(windows: readonly (readonly [label: string, window: number])[]): void {
  describe('compaction invariants (property)', () => {
    for (const [label, window] of windows) {
      it(`hold over ${NUM_RUNS} generated conversations (${label})`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(turnArbitrary, { minLength: 1, maxLength: 12 }),
            fc.boolean(),
            fc.integer({ min: 0, max: 2 }),
            (turns, dangling, mode) => runCase(turns, dangling, mode, window),
          ),
          { numRuns: NUM_RUNS },
        );
      }, 300_000);
    }
  });
}
