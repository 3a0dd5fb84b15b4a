import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import type { UsageRecord } from '../store/session-store.js';
import { countMessageTokens } from '../tokens/count-message-tokens.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { countHistory } from './counted-history.js';
import { countedStretch } from './counted-stretch.js';
import type { HistorySource } from './types.js';

const heuristic = heuristicCounter();
const count = (message: Message) => countMessageTokens(message, heuristic);
const ours = (messages: readonly Message[]) => messages.reduce((sum, message) => sum + count(message), 0);
const message = (id: string, words = 20): Message => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text: `${id} ${'lorem ipsum '.repeat(words)}` }],
});
const source = (list: readonly Message[]): HistorySource => ({
  length: list.length,
  messages: (from) => list.slice(from),
});

/** A record far below the trigger left lagging: our count of the first `from` messages, the provider's of all `to`. */
function lagging(list: readonly Message[], from: number, to: number): UsageRecord {
  return {
    inputTokens: 99_999,
    contextMessageCount: to,
    historyLength: to,
    stateVersion: 0,
    countedLength: from,
    countedPrefixTokens: ours(list.slice(0, from)),
    countedInputTokens: 1_000,
    reportsSinceCounted: 3,
    ...(to > 0 ? { lastMessageId: list[to - 1]!.id } : {}),
  };
}

describe('countedStretch', () => {
  const list = Array.from({ length: 12 }, (_, i) => message(`m${i}`, 5 + i));

  it('property: is our count of the record’s call — its pair plus the stretch, read from the source', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (sizes, a, b, extra) => {
          const all = sizes.map((words, i) => message(`x${i}`, words));
          const [from, to] = [a % (all.length + 1), b % (all.length + 1)].sort((x, y) => x - y) as [number, number];
          // The session held counted any length from the call's on; the source may hold more still.
          const heldLength = to + (extra % (all.length - to + 1));
          const held = countHistory(all.slice(0, heldLength), to);
          expect(countedStretch(held, source(all), lagging(all, from, to), count)).toBe(ours(all.slice(0, to)));
        },
      ),
    );
  });

  it('reads only the stretch of the source', () => {
    const reads: number[] = [];
    const read: HistorySource = {
      length: list.length,
      messages(from) {
        reads.push(from);
        return list.slice(from);
      },
    };
    countedStretch(countHistory(list, 9), read, lagging(list, 4, 9), count);
    expect(reads).toEqual([4]);
  });

  it('is undefined when the source no longer hands out the stretch it was brought in line with', () => {
    const held = countHistory(list, 9);
    const usage = lagging(list, 4, 9);
    const edited = list.slice();
    edited[6] = message('other');
    expect(countedStretch(held, source(edited), usage, count)).toBeUndefined();
    expect(countedStretch(held, source(list.slice(0, 8)), usage, count)).toBeUndefined();
    expect(countedStretch(held, source([...list.slice(0, 6), ...list.slice(7)]), usage, count)).toBeUndefined();
    // Another last message than the record's (its call was over another history).
    expect(countedStretch(held, source(list), { ...usage, lastMessageId: 'm3' }, count)).toBeUndefined();
    // An invalid message, or a read that throws: the switch goes on without the sample.
    const invalid = list.slice();
    invalid[5] = { id: 'm5', role: 'robot', parts: [] } as unknown as Message;
    expect(countedStretch(held, source(invalid), usage, count)).toBeUndefined();
    const throwing: HistorySource = {
      length: list.length,
      messages: () => {
        throw new Error('gone');
      },
    };
    expect(countedStretch(held, throwing, usage, count)).toBeUndefined();
  });

  it('is undefined for a record it cannot stand for: no pair, a compaction state, or past the history', () => {
    const held = countHistory(list.slice(0, 9), 9);
    const usage = lagging(list, 4, 9);
    const { countedPrefixTokens: _prefix, ...withoutPair } = usage;
    expect(countedStretch(held, source(list), withoutPair, count)).toBeUndefined();
    expect(countedStretch(held, source(list), { ...usage, stateVersion: 1 }, count)).toBeUndefined();
    const longer = lagging(list, 4, 11);
    expect(countedStretch(held, source(list), longer, count)).toBeUndefined();
  });
});
