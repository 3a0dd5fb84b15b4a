import { describe, expect, it } from 'vitest';
import { conversation, stateKeeping } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { createConversationState } from './conversation-state.js';
import { BRANCH_JOURNAL_SUFFIX, createSessionPersistence } from './session-persistence.js';

function setup(store: SessionStore, persistHistory = true) {
  const conv = createConversationState();
  return { conv, persistence: createSessionPersistence({ store, sessionId: 's', persistHistory, conversation: conv }) };
}

function turn(): Message[] {
  const c = conversation();
  return [c.user('a'), c.assistant('b'), c.user('c')];
}

describe('createSessionPersistence', () => {
  it('memory changes only after the store accepted: a refused append or record leaves memory as it was', async () => {
    let fail = false;
    const { conv, persistence } = setup(faultyStore(memoryStore(), () => fail));
    await persistence.load(() => undefined);
    const messages = turn();
    await persistence.append(messages.slice(0, 2));
    fail = true;
    await expect(persistence.append(messages.slice(2))).rejects.toThrow(/ENOSPC/);
    await expect(persistence.saveRecord({ stuckAtHistoryLength: 2 })).rejects.toThrow(/ENOSPC/);
    expect(conv.history).toHaveLength(2);
    expect(conv.record).toEqual({});
  });

  it('adopts a newer stored state for this history only', async () => {
    const inner = memoryStore();
    const messages = turn();
    const { conv, persistence } = setup(inner);
    await persistence.load(() => undefined);
    await persistence.append(messages);
    await inner.saveRecord('s', { state: stateKeeping('missing', 2) });
    expect(await persistence.adoptStoredState()).toBe(false);
    await inner.saveRecord('s', { state: stateKeeping(messages[1]!.id, 2) });
    expect(await persistence.adoptStoredState()).toBe(true);
    expect(conv.version()).toBe(2);
    expect(await persistence.adoptStoredState()).toBe(false);
  });

  it('adoptStoredState on a record the store cannot read now compacts on its own state', async () => {
    const { persistence } = setup(
      faultyStore(memoryStore(), (operation, index) => operation === 'loadRecord' && index > 0),
    );
    await persistence.load(() => undefined);
    expect(await persistence.adoptStoredState()).toBe(false);
  });

  it('writes started together reach the store and memory one at a time, in call order', async () => {
    const inner = memoryStore();
    const { conv, persistence } = setup(inner);
    await persistence.load(() => undefined);
    const c = conversation();
    const batches = Array.from({ length: 6 }, (_, index) => [c.user(`q${index}`), c.assistant(`a${index}`)]);
    await Promise.all([
      ...batches.slice(0, 3).map((batch) => persistence.append(batch)),
      persistence.saveRecord({ stuckAtHistoryLength: 6 }),
      ...batches.slice(3).map((batch) => persistence.append(batch)),
    ]);
    const expected = batches.flat().map((m) => m.id);
    expect(conv.history.map((m) => m.id)).toEqual(expected);
    expect((await inner.loadHistory('s')).map((m) => m.id)).toEqual(expected);
    expect(conv.record).toEqual(await inner.loadRecord('s'));
  });

  it('clear forgets the history, the record and the journal; a refused clear leaves memory whole', async () => {
    let fail = false;
    const inner = memoryStore();
    const { conv, persistence } = setup(faultyStore(inner, (operation) => fail && operation === 'clear'));
    await persistence.load(() => undefined);
    await persistence.append(turn());
    await persistence.saveRecord({ stuckAtHistoryLength: 3 });
    await inner.appendHistory(`s${BRANCH_JOURNAL_SUFFIX}`, turn());
    fail = true;
    await expect(persistence.clear()).rejects.toThrow(/ENOSPC/);
    expect(conv.history).toHaveLength(3);
    expect(conv.record.stuckAtHistoryLength).toBe(3);
    fail = false;
    await persistence.clear();
    expect(conv.history).toEqual([]);
    expect(conv.record).toEqual({});
    expect(await inner.loadHistory('s')).toEqual([]);
    expect(await inner.loadHistory(`s${BRANCH_JOURNAL_SUFFIX}`)).toEqual([]);
    expect(await inner.loadRecord('s')).toBeUndefined();
  });

  it('without a persisted history, an append reaches memory at once and writes nothing', async () => {
    const store = faultyStore(memoryStore());
    const { conv, persistence } = setup(store, false);
    await persistence.load(() => undefined);
    store.calls.length = 0;
    const pending = persistence.append(turn());
    expect(conv.history).toHaveLength(3);
    await pending;
    expect(store.calls).toEqual([]);
  });
});
