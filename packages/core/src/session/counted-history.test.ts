import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import {
  appendCounted,
  appendsAsIs,
  countedCommonLength,
  countedUsage,
  countHistory,
  idHash,
  lastCountedId,
  mayHoldId,
} from './counted-history.js';

const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: id }] });
const usage = (historyLength: number, lastMessageId: string) => ({
  usage: {
    inputTokens: 500,
    contextMessageCount: historyLength,
    historyLength,
    stateVersion: 0,
    countedTokens: 400,
    lastMessageId,
  },
});

describe('counted history', () => {
  it('hashes ids to 53 bits, the same every time, apart for ids that differ by a character or its place', () => {
    const ids = ['a', 'b', 'ab', 'ba', 'm1', 'm1#1', 'm1:results', 'm1#1:results', '', 'x'.repeat(1000)];
    const hashes = ids.map(idHash);
    expect(new Set(hashes).size).toBe(ids.length);
    for (const hash of hashes) expect(Number.isSafeInteger(hash) && hash >= 0).toBe(true);
    expect(ids.map(idHash)).toEqual(hashes);
    const many = new Set(Array.from({ length: 50_000 }, (_, index) => idHash(`msg-${index}`)));
    expect(many.size).toBe(50_000);
  });

  it('keeps the messages after the record, finds the last covered id, and lets go of what a newer record covers', () => {
    const history = ['m0', 'm1', 'm2', 'm3'].map(message);
    const counted = countHistory(history, 3);
    expect(counted.tail.map((m) => m.id)).toEqual(['m3']);
    expect(lastCountedId(counted)).toBe('m3');
    expect(countedUsage(usage(3, 'm2'), counted)?.historyLength).toBe(3);
    expect(countedUsage(usage(3, 'other'), counted)).toBeUndefined(); // not this history's
    expect(countedUsage(usage(2, 'm1'), counted)).toBeUndefined(); // older than what is held
    expect(countedUsage({ ...usage(3, 'm2'), state: {} as never }, counted)).toBeUndefined();
    appendCounted(counted, [message('m4')]);
    expect(countedUsage(usage(5, 'm4'), counted)?.historyLength).toBe(5);
    expect(counted.tail).toEqual([]);
    expect(lastCountedId(counted)).toBe('m4');
  });

  it('compares ids from a place on, grows past its first room, and says which new ids may be held', () => {
    const counted = countHistory([message('m0'), message('m1')], 2);
    const added = Array.from({ length: 40 }, (_, index) => message(`n${index}`));
    appendCounted(counted, added);
    expect(counted.length).toBe(42);
    const same = [message('m0'), message('m1'), ...added];
    expect(countedCommonLength(counted, 0, same)).toBe(42);
    expect(countedCommonLength(counted, 2, same.slice(2))).toBe(42);
    const edited = [...same];
    edited[17] = message('other');
    expect(countedCommonLength(counted, 0, edited)).toBe(17);
    expect(countedCommonLength(counted, 0, same.slice(0, 10))).toBe(10);
    expect(mayHoldId(counted, 'n5')).toBe(true);
    expect(mayHoldId(counted, 'n40')).toBe(false);
  });

  it('appends as it is only what needs no tool pair repaired', () => {
    const call: Message = {
      id: 'c',
      role: 'assistant',
      parts: [{ type: 'tool-call', toolCallId: 't1', toolName: 'read', input: {} }],
    };
    const result: Message = {
      id: 'r',
      role: 'tool',
      parts: [{ type: 'tool-result', toolCallId: 't1', toolName: 'read', output: 'x', isError: false }],
    };
    expect(appendsAsIs([call, result])).toBe(true);
    expect(appendsAsIs([call])).toBe(false);
    expect(appendsAsIs([result])).toBe(false);
  });
});
