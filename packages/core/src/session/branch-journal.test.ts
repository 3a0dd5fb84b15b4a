import { describe, expect, it } from 'vitest';
import { conversation } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { BRANCH_JOURNAL_COMMIT, BRANCH_JOURNAL_SUFFIX, createBranchJournal } from './branch-journal.js';
import { createConversationState } from './conversation-state.js';
import { loadConversation } from './load-conversation.js';

const JOURNAL = `s${BRANCH_JOURNAL_SUFFIX}`;

function setup(store: SessionStore, persistHistory = true) {
  const conv = createConversationState();
  const options = { store, sessionId: 's', persistHistory, conversation: conv };
  const journal = createBranchJournal(options);
  /** The load step as the session runs it: read the journal with the record and history, then finish it. */
  const load = async () =>
    journal.resume(
      await loadConversation(
        options,
        () => journal.read(),
        () => undefined,
      ),
    );
  return { conv, journal, load };
}

function turn(): Message[] {
  const c = conversation();
  return [c.user('a'), c.assistant('b'), c.user('c')];
}

const edited: Message = { id: 'edited', role: 'user', parts: [{ type: 'text', text: 'new' }] };

describe('createBranchJournal', () => {
  it('load finishes a branch switch the journal shows was interrupted', async () => {
    const inner = memoryStore();
    const old = turn();
    const branch: Message[] = [old[0]!, edited];
    // The crash came after the journal was committed, and after the old history was cleared.
    await inner.appendHistory(JOURNAL, [...branch, BRANCH_JOURNAL_COMMIT]);
    await inner.clear('s');
    const { conv, load } = setup(inner);
    await load();
    expect(conv.history.map((m) => m.id)).toEqual(['u1', 'edited']);
    expect((await inner.loadHistory('s')).map((m) => m.id)).toEqual(['u1', 'edited']);
    expect(await inner.loadHistory(JOURNAL)).toEqual([]);
  });

  it('a journal without its commit entry (the switch failed or crashed before committing) is dropped', async () => {
    const inner = memoryStore();
    const old = turn();
    await inner.appendHistory('s', old);
    await inner.appendHistory(JOURNAL, [old[0]!, edited]);
    const { conv, load } = setup(inner);
    await load();
    expect(conv.history.map((m) => m.id)).toEqual(old.map((m) => m.id));
    expect(await inner.loadHistory(JOURNAL)).toEqual([]);
  });

  it('switchBranch without a persisted history only saves the record', async () => {
    const store = faultyStore(memoryStore());
    const { conv, journal, load } = setup(store, false);
    await load();
    store.calls.length = 0;
    await journal.switchBranch(turn(), {});
    expect(store.calls).toEqual(['saveRecord']);
    expect(conv.history).toHaveLength(3);
    expect(conv.epoch).toBe(2);
  });

  it('a committed switch replaces the stored history and memory, and leaves no journal', async () => {
    const inner = memoryStore();
    const old = turn();
    await inner.appendHistory('s', old);
    const { conv, journal, load } = setup(inner);
    await load();
    await journal.switchBranch([old[0]!, edited], { stuckAtHistoryLength: 1 });
    expect(journal.pending).toBe(false);
    expect(conv.history.map((m) => m.id)).toEqual(['u1', 'edited']);
    expect((await inner.loadHistory('s')).map((m) => m.id)).toEqual(['u1', 'edited']);
    expect(await inner.loadHistory(JOURNAL)).toEqual([]);
    const stored = await inner.loadRecord('s');
    expect(stored).toMatchObject({ stuckAtHistoryLength: 1 });
    expect(conv.record).toEqual(stored);
  });

  it('every failure before the commit leaves memory and the store on the old branch, and throws', async () => {
    // The switch's writes, in order: settle (nothing), clear journal, append journal, save record,
    // commit entry. Each of the last four fails in turn; the rollback's own writes never fail.
    for (const failing of [0, 1, 2, 3]) {
      const inner = memoryStore();
      const old = turn();
      await inner.appendHistory('s', old);
      await inner.saveRecord('s', { stuckAtHistoryLength: 3 });
      let writes = 0;
      let armed = false;
      const store = faultyStore(inner, (operation) => {
        if (!armed || operation === 'loadHistory' || operation === 'loadRecord') return false;
        const fail = writes === failing;
        writes += 1;
        if (fail) armed = false;
        return fail;
      });
      const { conv, journal, load } = setup(store);
      await load();
      const before = conv.record;
      armed = true;
      await expect(journal.switchBranch([old[0]!, edited], {})).rejects.toThrow(/ENOSPC/);
      expect(conv.history.map((m) => m.id)).toEqual(old.map((m) => m.id));
      expect((await inner.loadHistory('s')).map((m) => m.id)).toEqual(old.map((m) => m.id));
      expect(await inner.loadHistory(JOURNAL)).toEqual([]);
      const stored = await inner.loadRecord('s');
      expect(stored).toMatchObject({ stuckAtHistoryLength: before.stuckAtHistoryLength });
      expect(conv.record).toEqual(stored);
    }
  });

  it('a failure after the commit leaves the switch pending, finished by the next settle', async () => {
    const inner = memoryStore();
    const old = turn();
    await inner.appendHistory('s', old);
    let failCopy = false;
    // After the commit entry, the stored history is cleared and the journal copied over it.
    const store = faultyStore(inner, (operation, _index, sessionId) => {
      return failCopy && operation === 'appendHistory' && sessionId === 's';
    });
    const { conv, journal, load } = setup(store);
    await load();
    failCopy = true;
    await journal.switchBranch([old[0]!, edited], {});
    expect(journal.pending).toBe(true);
    expect(conv.history.map((m) => m.id)).toEqual(['u1', 'edited']);
    // A restart now would load the committed journal: nothing is lost.
    const restarted = setup(inner);
    expect(await restarted.journal.read()).toEqual([old[0], edited]);
    failCopy = false;
    await journal.settle();
    expect(journal.pending).toBe(false);
    expect((await inner.loadHistory('s')).map((m) => m.id)).toEqual(['u1', 'edited']);
    expect(await inner.loadHistory(JOURNAL)).toEqual([]);
    expect(conv.record).toEqual(await inner.loadRecord('s'));
  });

  it('clear settles and removes the journal, and nothing else', async () => {
    const inner = memoryStore();
    const old = turn();
    await inner.appendHistory('s', old);
    await inner.appendHistory(JOURNAL, [edited]);
    const { journal } = setup(inner);
    expect(await journal.read()).toBeUndefined();
    await journal.clear();
    expect(await inner.loadHistory(JOURNAL)).toEqual([]);
    expect(await inner.loadHistory('s')).toHaveLength(3);
  });
});
