import { describe, expect, it } from 'vitest';
import { conversation, stateKeeping } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { createConversationState } from './conversation-state.js';
import { catchUpWithStore, loadConversation, reloadConversation } from './load-conversation.js';

function setup(store: SessionStore, persistHistory = true) {
  const conv = createConversationState();
  return { conv, options: { store, sessionId: 's', persistHistory, conversation: conv } };
}

const noJournal = async () => undefined;

function turn(): Message[] {
  const c = conversation();
  return [c.user('a'), c.assistant('b'), c.user('c')];
}

describe('loadConversation', () => {
  it('a record that fails validation is passed to onBadRecord and set aside; the history loads', async () => {
    const inner = memoryStore();
    const messages = turn();
    await inner.appendHistory('s', messages);
    const bad = new InvalidStateError({ problem: 'state.summary must be a string', source: 'memory:"s"/record' });
    const store: SessionStore = { ...inner, loadRecord: async () => Promise.reject(bad) };
    const { conv, options } = setup(store);
    const reported: unknown[] = [];
    await loadConversation(options, noJournal, (error) => reported.push(error));
    expect(reported).toEqual([bad]);
    expect(conv.history).toHaveLength(3);
    expect(conv.record).toEqual({});
  });

  it('any other load failure is thrown (nothing set aside)', async () => {
    const store = faultyStore(memoryStore(), (operation) => operation === 'loadRecord');
    const { options } = setup(store);
    await expect(loadConversation(options, noJournal, () => undefined)).rejects.toThrow(/ENOSPC/);
  });

  it('a stored state whose kept message is not in the stored history is dropped on load', async () => {
    const inner = memoryStore();
    await inner.appendHistory('s', turn());
    await inner.saveRecord('s', { state: stateKeeping('elsewhere') });
    const { conv, options } = setup(inner);
    await loadConversation(options, noJournal, () => undefined);
    expect(conv.record.state).toBeUndefined();
  });

  it('reads the record before the history, and keeps a state whose kept message is stored', async () => {
    const messages = turn();
    const inner = memoryStore();
    await inner.appendHistory('s', messages);
    await inner.saveRecord('s', { state: stateKeeping(messages[1]!.id) });
    const store = faultyStore(inner);
    const { conv, options } = setup(store);
    expect(await loadConversation(options, noJournal, () => undefined)).toBeUndefined();
    expect(store.calls).toEqual(['loadRecord', 'loadHistory']);
    expect(conv.history.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    expect(conv.record).toMatchObject({ revision: 1, state: { firstKeptMessageId: messages[1]!.id } });
    expect(conv.epoch).toBe(1);
  });

  it("a committed journal's history is loaded instead of the stored one, and returned to be finished", async () => {
    const inner = memoryStore();
    const old = turn();
    await inner.appendHistory('s', old);
    const branch = old.slice(0, 2);
    const { conv, options } = setup(inner);
    expect(
      await loadConversation(
        options,
        async () => branch,
        () => undefined,
      ),
    ).toEqual(branch);
    expect(conv.history.map((m) => m.id)).toEqual(branch.map((m) => m.id));
  });

  it('without a persisted history, reads only the record (no history, no journal)', async () => {
    const inner = memoryStore();
    await inner.appendHistory('s', turn());
    await inner.saveRecord('s', { state: stateKeeping('kept-by-the-framework') });
    const store = faultyStore(inner);
    const { conv, options } = setup(store, false);
    let journalRead = false;
    await loadConversation(
      options,
      async () => {
        journalRead = true;
        return undefined;
      },
      () => undefined,
    );
    expect(journalRead).toBe(false);
    expect(store.calls).toEqual(['loadRecord']);
    expect(conv.history).toEqual([]);
    expect(conv.record.state?.firstKeptMessageId).toBe('kept-by-the-framework');
  });
});

describe('catchUpWithStore', () => {
  it('takes the record and the messages another process appended after the ones memory has', async () => {
    const store = memoryStore();
    const messages = turn();
    await store.appendHistory('s', messages.slice(0, 1));
    const { conv, options } = setup(store);
    await loadConversation(options, noJournal, () => undefined);
    await store.appendHistory('s', messages.slice(1));
    await store.saveRecord('s', { state: stateKeeping(messages[2]!.id, 2) });
    await catchUpWithStore(options);
    expect(conv.history.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    expect(conv.version()).toBe(2);
    expect(conv.epoch).toBe(1); // appended to, not replaced
  });

  it('a store that ignores `from` returns the whole history: memory replaces its own, no duplicates', async () => {
    const inner = memoryStore();
    const messages = turn();
    await inner.appendHistory('s', messages.slice(0, 2));
    const store: SessionStore = { ...inner, loadHistory: (sessionId) => inner.loadHistory(sessionId) };
    const { conv, options } = setup(store);
    await loadConversation(options, noJournal, () => undefined);
    await inner.appendHistory('s', messages.slice(2));
    await catchUpWithStore(options);
    expect(conv.history.map((m) => m.id)).toEqual(messages.map((m) => m.id));
  });

  it('a record whose kept message memory cannot find (cleared or switched elsewhere) reloads the whole history', async () => {
    const store = memoryStore();
    const old = turn();
    await store.appendHistory('s', old);
    const { conv, options } = setup(store);
    await loadConversation(options, noJournal, () => undefined);
    const other = conversation();
    const replaced = [other.user('x'), other.assistant('y')].map((m) => ({ ...m, id: `other-${m.id}` }));
    await store.clear('s');
    await store.appendHistory('s', replaced);
    await store.saveRecord('s', { state: stateKeeping(replaced[1]!.id, 3) });
    await catchUpWithStore(options);
    expect(conv.history.map((m) => m.id)).toEqual(replaced.map((m) => m.id));
    expect(conv.version()).toBe(3);
    expect(conv.epoch).toBe(2);
  });

  it('without a persisted history, takes only the record', async () => {
    const inner = memoryStore();
    const store = faultyStore(inner);
    const { conv, options } = setup(store, false);
    await inner.saveRecord('s', { stuckAtHistoryLength: 4 });
    await catchUpWithStore(options);
    expect(store.calls).toEqual(['loadRecord']);
    expect(conv.record).toEqual({ stuckAtHistoryLength: 4, revision: 1 });
  });
});

describe('reloadConversation', () => {
  it('replaces memory with the stored record and history, dropping a state the history does not hold', async () => {
    const store = memoryStore();
    const messages = turn();
    const { conv, options } = setup(store);
    conv.apply({ replace: messages, record: { state: stateKeeping(messages[1]!.id) } });
    await store.appendHistory('s', messages.slice(0, 1));
    await store.saveRecord('s', { state: stateKeeping(messages[1]!.id, 2), stuckAtHistoryLength: 1 });
    await reloadConversation(options);
    expect(conv.history.map((m) => m.id)).toEqual([messages[0]!.id]);
    expect(conv.record).toEqual({ stuckAtHistoryLength: 1, revision: 1, state: undefined });
  });
});
