import { describe, expect, it } from 'vitest';
import { conversation } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { appendToHistory } from './append-to-history.js';
import { createBranchJournal } from './branch-journal.js';
import { createConversationState } from './conversation-state.js';

function setup(store: SessionStore) {
  const conv = createConversationState();
  const options = { store, sessionId: 's', persistHistory: true, conversation: conv };
  const journal = createBranchJournal(options);
  return { conv, append: (messages: readonly Message[]) => appendToHistory(options, journal, messages) };
}

function messages(count: number, prefix: string): Message[] {
  const c = conversation();
  return Array.from({ length: count }, (_, index) => {
    const message = index % 2 === 0 ? c.user(`${prefix}${index}`) : c.assistant(`${prefix}${index}`);
    return { ...message, id: `${prefix}-${message.id}` };
  });
}

const ids = (list: readonly Message[]) => list.map((m) => m.id);

describe('appendToHistory', () => {
  it('writes to the store, then appends to memory', async () => {
    const store = memoryStore();
    const { conv, append } = setup(store);
    const mine = messages(3, 'mine');
    await append(mine.slice(0, 2));
    await append(mine.slice(2));
    expect(ids(conv.history)).toEqual(ids(mine));
    expect(ids(await store.loadHistory('s'))).toEqual(ids(mine));
    expect(conv.epoch).toBe(0);
  });

  it('a refused append leaves memory as it was', async () => {
    const { conv, append } = setup(faultyStore(memoryStore(), (operation) => operation === 'appendHistory'));
    await expect(append(messages(2, 'mine'))).rejects.toThrow(/ENOSPC/);
    expect(conv.history).toEqual([]);
  });

  it("another process's appends, before and after ours: memory holds ours in the store's order, a prefix of it", async () => {
    // Property over where the other process's messages fall: before ours (between the reads) and after
    // ours (between our write and our read of the tail).
    for (let before = 0; before <= 3; before += 1) {
      for (let after = 0; after <= 2; after += 1) {
        const inner = memoryStore();
        const theirs = messages(before + after, 'theirs');
        let writing = false;
        const store: SessionStore = {
          ...inner,
          async appendHistory(sessionId, list) {
            if (!writing) return inner.appendHistory(sessionId, list);
            writing = false;
            await inner.appendHistory(sessionId, theirs.slice(0, before));
            const length = await inner.appendHistory(sessionId, list);
            await inner.appendHistory(sessionId, theirs.slice(before));
            return length;
          },
        };
        const { conv, append } = setup(store);
        await append(messages(1, 'first'));
        writing = true;
        const mine = messages(2, 'mine');
        await append(mine);
        const stored = await inner.loadHistory('s');
        // Memory is a prefix of the store that holds ours (later appends by others are caught up later).
        expect(ids(conv.history)).toEqual(ids(stored).slice(0, conv.history.length));
        expect(ids(conv.history).slice(-2 - (before > 0 ? after : 0))).toEqual([
          ...ids(mine),
          ...(before > 0 ? ids(theirs.slice(before)) : []),
        ]);
        expect(ids(stored)).toEqual([
          'first-u1',
          ...ids(theirs.slice(0, before)),
          ...ids(mine),
          ...ids(theirs.slice(before)),
        ]);
      }
    }
  });

  it('a stored history that shrank (cleared or switched elsewhere) is reloaded whole', async () => {
    const inner = memoryStore();
    const { conv, append } = setup(inner);
    await append(messages(4, 'old'));
    await inner.clear('s');
    const mine = messages(1, 'mine');
    await append(mine);
    expect(ids(conv.history)).toEqual(ids(mine));
    expect(conv.epoch).toBe(1);
  });

  it('a store that does not report the new length: memory appends what it wrote', async () => {
    const inner = memoryStore();
    const store: SessionStore = {
      ...inner,
      async appendHistory(sessionId, list) {
        await inner.appendHistory(sessionId, list);
      },
    };
    const { conv, append } = setup(store);
    const mine = messages(3, 'mine');
    await append(mine);
    expect(ids(conv.history)).toEqual(ids(mine));
  });
});
