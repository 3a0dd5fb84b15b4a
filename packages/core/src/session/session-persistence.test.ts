import { describe, expect, it } from 'vitest';
import { conversation } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from '../compaction/compaction-state.js';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { createConversationState } from './conversation-state.js';
import { BRANCH_JOURNAL_COMMIT, BRANCH_JOURNAL_SUFFIX, createSessionPersistence } from './session-persistence.js';

const stateKeeping = (id: string, version = 1): CompactionState => ({
  schema: COMPACTION_STATE_SCHEMA,
  version,
  summary: 'S',
  firstKeptMessageId: id,
  summarizedRange: { fromIndex: 0, toIndex: 0, messageCount: 1 },
  prunedToolCallIds: [],
  fileOps: { read: [], modified: [] },
  tokensBefore: 10,
  tokensAfter: 5,
  strategy: 'structured',
  createdAt: '2026-01-01T00:00:00.000Z',
});

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

  it('a record that fails validation is passed to onBadRecord and set aside; the history loads', async () => {
    const inner = memoryStore();
    const messages = turn();
    await inner.appendHistory('s', messages);
    const bad = new InvalidStateError({ problem: 'state.summary must be a string', source: 'memory:"s"/record' });
    const store: SessionStore = { ...inner, loadRecord: async () => Promise.reject(bad) };
    const { conv, persistence } = setup(store);
    const reported: unknown[] = [];
    await persistence.load((error) => reported.push(error));
    expect(reported).toEqual([bad]);
    expect(conv.history).toHaveLength(3);
    expect(conv.record).toEqual({});
  });

  it('any other load failure is thrown (nothing set aside)', async () => {
    const store = faultyStore(memoryStore(), (operation) => operation === 'loadRecord');
    const { persistence } = setup(store);
    await expect(persistence.load(() => undefined)).rejects.toThrow(/ENOSPC/);
  });

  it('a stored state whose kept message is not in the stored history is dropped on load', async () => {
    const inner = memoryStore();
    await inner.appendHistory('s', turn());
    await inner.saveRecord('s', { state: stateKeeping('elsewhere') });
    const { conv, persistence } = setup(inner);
    await persistence.load(() => undefined);
    expect(conv.record.state).toBeUndefined();
  });

  it('load finishes a branch switch the journal shows was interrupted', async () => {
    const inner = memoryStore();
    const old = turn();
    const branch: Message[] = [old[0]!, { id: 'edited', role: 'user', parts: [{ type: 'text', text: 'new' }] }];
    // The crash came after the journal was committed, and after the old history was cleared.
    await inner.appendHistory(`s${BRANCH_JOURNAL_SUFFIX}`, [...branch, BRANCH_JOURNAL_COMMIT]);
    await inner.clear('s');
    const { conv, persistence } = setup(inner);
    await persistence.load(() => undefined);
    expect(conv.history.map((m) => m.id)).toEqual(['u1', 'edited']);
    expect((await inner.loadHistory('s')).map((m) => m.id)).toEqual(['u1', 'edited']);
    expect(await inner.loadHistory(`s${BRANCH_JOURNAL_SUFFIX}`)).toEqual([]);
  });

  it('a journal without its commit entry (the switch failed or crashed before committing) is dropped', async () => {
    const inner = memoryStore();
    const old = turn();
    await inner.appendHistory('s', old);
    await inner.appendHistory(`s${BRANCH_JOURNAL_SUFFIX}`, [
      old[0]!,
      { id: 'edited', role: 'user', parts: [{ type: 'text', text: 'new' }] },
    ]);
    const { conv, persistence } = setup(inner);
    await persistence.load(() => undefined);
    expect(conv.history.map((m) => m.id)).toEqual(old.map((m) => m.id));
    expect(await inner.loadHistory(`s${BRANCH_JOURNAL_SUFFIX}`)).toEqual([]);
  });

  it('switchBranch without a persisted history only saves the record', async () => {
    const store = faultyStore(memoryStore());
    const { conv, persistence } = setup(store, false);
    await persistence.load(() => undefined);
    store.calls.length = 0;
    await persistence.switchBranch(turn(), {});
    expect(store.calls).toEqual(['saveRecord']);
    expect(conv.history).toHaveLength(3);
    expect(conv.epoch).toBe(2);
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
});
