import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextTokens } from '../compaction/context-tokens.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import { truncateSummarizer } from '../summarize/index.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import { countedPair } from './next-usage-record.js';
import type { HistorySource } from './types.js';
import { waitsForResult } from './waits-for-result.js';

const call = (id: string, ...calls: string[]): Message => ({
  id,
  role: 'assistant',
  parts: calls.map((toolCallId) => ({ type: 'tool-call', toolCallId, toolName: 'read', input: { path: toolCallId } })),
});
const result = (id: string, toolCallId: string, role: 'tool' | 'user' = 'tool'): Message => ({
  id,
  role,
  parts: [{ type: 'tool-result', toolCallId, toolName: 'read', output: 'y'.repeat(200) }],
});
const text = (id: string, role: 'user' | 'assistant' = 'user'): Message => ({
  id,
  role,
  parts: [{ type: 'text', text: `${id} ${'hello there '.repeat(20)}` }],
});

describe('waitsForResult', () => {
  it('is true where the prefix ends with a call whose result is not in it, false once every call is answered', () => {
    const history = [text('u0'), call('a1', 'c1', 'c2'), result('t1', 'c1'), result('t2', 'c2', 'user'), text('u3')];
    expect([0, 1, 2, 3, 4, 5].map((length) => waitsForResult(history, length))).toEqual([
      false,
      false,
      true, // both calls wait
      true, // c2 still waits
      false,
      false,
    ]);
  });

  it('takes a provider-executed result beside its call as its answer, and reads no further back than the calls', () => {
    const executed: Message = {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: {} },
        { type: 'tool-result', toolCallId: 'c1', toolName: 'search', output: 'found' },
      ],
    };
    expect(waitsForResult([executed], 1)).toBe(false);
    // An older call never answered lies before the last calls' message: not this rule's (see the decisions).
    expect(waitsForResult([call('a0', 'c0'), text('u1'), call('a2', 'c2'), result('t3', 'c2')], 4)).toBe(false);
  });
});

describe('a count taken while a tool call waits for its result', () => {
  const counter = heuristicCounter();

  /** A session whose every call is reported as our count + 500, handed its history as `messages` or a source. */
  function make(way: 'messages' | 'history', window: number, store = memoryStore()) {
    const session = createCompactionSession({
      sessionId: 's',
      store,
      persistHistory: false, // a source's history is then held counted, not loaded, where it can be
      settings: { contextWindow: window, keepRecentTokens: 800, minMessages: 1_000 },
      counter,
      summarizer: truncateSummarizer(),
    });
    let previous: (HistorySource & { list: readonly Message[] }) | undefined;
    const prepare = (history: readonly Message[]) => {
      const list = history.slice();
      if (way === 'messages') return session.prepare({ messages: list });
      let unchanged = 0;
      while (
        previous &&
        unchanged < Math.min(previous.length, list.length) &&
        previous.list[unchanged] === list[unchanged]
      )
        unchanged += 1;
      const source: HistorySource & { list: readonly Message[] } = {
        list,
        length: list.length,
        messages: (from) => list.slice(from),
        ...(previous ? { since: { source: previous, unchanged } } : {}),
      };
      previous = source;
      return session.prepare({ history: source });
    };
    return { store, session, prepare };
  }

  it('a switch after a stretch from a count taken while a call waited learns the same on both paths as settling', async () => {
    const big = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: 'word '.repeat(700) }] });
    const calibrations: (number | undefined)[] = [];
    for (const way of ['messages', 'history', 'reference'] as const) {
      const kind = way === 'history' ? 'history' : 'messages';
      let { store, session, prepare } = make(kind, 1_000_000);
      const cache = createTokenCache(counter);
      const truth = (messages: readonly Message[]) => contextTokens(messages, undefined, cache.count, counter);
      // The first call is exact, made while the tool call waits: its pair holds a synthetic result.
      const history: Message[] = [text('u0'), call('a1', 'c1')];
      for (let i = 0; i < 6; i += 1) {
        await prepare(history);
        await session.recordUsage({ inputTokens: Math.round(truth(history) * 1.3) + 500 });
        history.push(i === 0 ? result(`t${i}`, 'c1') : big(`b${i}`));
        // Made anew over its store once the result came (an eviction): a fresh context, the pair as stored.
        if (i === 0) ({ store, session, prepare } = make(kind, 1_000_000, store));
      }
      await prepare(history);
      await session.recordUsage({ inputTokens: Math.round(truth(history) * 1.3) + 500 });
      if (way === 'reference') await session.compact();
      else await prepare([...history.slice(0, -1), text('edited')]);
      calibrations.push((await store.loadRecord('s'))?.calibration?.default);
    }
    expect(calibrations[2]).toBeDefined();
    expect(calibrations).toEqual([calibrations[2], calibrations[2], calibrations[2]]);
  });

  it('property: the stored counts, a settled count and a call’s tokens without reports are full recounts of their context', async () => {
    let waited = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('text', 'waiting', 'answered', 'two-waiting'), { minLength: 2, maxLength: 14 }),
        fc.constantFrom('messages' as const, 'history' as const),
        fc.constantFrom(1_000_000, 6_000),
        fc.boolean(),
        async (turns, way, window, reports) => {
          const cache = createTokenCache(counter);
          const truth = (messages: readonly Message[]) => contextTokens(messages, undefined, cache.count, counter);
          const { store, session, prepare } = make(way, window);
          const history: Message[] = [];
          let next = 0;
          const callAndReport = async () => {
            const prepared = await prepare(history);
            if (!reports) {
              // No report ever: the call's tokens are our count of its context (ratio 1, no offset).
              expect(prepared.tokens).toBe(truth(history));
              return;
            }
            if (waitsForResult(history, history.length)) waited += 1;
            await session.recordUsage({ inputTokens: truth(history) + 500 });
            const usage = (await store.loadRecord('s'))?.usage;
            const pair = countedPair(usage);
            if (pair) expect(pair.tokens).toBe(truth(history.slice(0, pair.length)));
            if (usage?.countedTokens !== undefined) {
              expect(usage.countedTokens).toBe(truth(history.slice(0, usage.historyLength)));
            }
          };
          for (const turn of turns) {
            const id = `m${next++}`;
            if (turn === 'text') {
              history.push(text(id));
            } else {
              const calls = turn === 'two-waiting' ? [`c${id}a`, `c${id}b`] : [`c${id}`];
              history.push(call(id, ...calls));
              if (turn !== 'answered') await callAndReport(); // a call while they wait (an approval)
              for (const toolCallId of calls) history.push(result(`m${next++}`, toolCallId));
            }
            await callAndReport();
          }
          // A compaction settles the count first: the stored count is then a full recount.
          await session.compact();
          const usage = (await store.loadRecord('s'))?.usage;
          if (reports && usage?.countedTokens !== undefined && usage.stateVersion === 0) {
            expect(usage.countedTokens).toBe(truth(history.slice(0, usage.historyLength)));
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(waited).toBeGreaterThan(100);
  }, 60_000);
});
