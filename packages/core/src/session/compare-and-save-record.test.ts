import { describe, expect, it } from 'vitest';
import { conversation, stateKeeping } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { StoreConflictError } from '../store/errors/store-conflict-error.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { compareAndSaveRecord, MERGE_ATTEMPTS } from './compare-and-save-record.js';
import { createConversationState } from './conversation-state.js';
import { loadConversation } from './load-conversation.js';

function turn(): Message[] {
  const c = conversation();
  return [c.user('a'), c.assistant('b'), c.user('c')];
}

/** One process's memory of session `s` in `store`, loaded. */
async function process(store: SessionStore) {
  const conv = createConversationState();
  const options = { store, sessionId: 's', persistHistory: true, conversation: conv };
  await loadConversation(
    options,
    async () => undefined,
    () => undefined,
  );
  return { conv, save: (record: Parameters<typeof compareAndSaveRecord>[1]) => compareAndSaveRecord(options, record) };
}

describe('compareAndSaveRecord', () => {
  it('saves against the revision memory holds, then memory takes the record with its new revision', async () => {
    const store = memoryStore();
    await store.saveRecord('s', { stuckAtHistoryLength: 1 });
    const one = await process(store);
    await one.save({ ...one.conv.record, stuckAtHistoryLength: 2 });
    expect(one.conv.record).toEqual({ stuckAtHistoryLength: 2, revision: 2 });
    expect(await store.loadRecord('s')).toEqual(one.conv.record);
  });

  it('a refused save leaves memory as it was', async () => {
    const one = await process(faultyStore(memoryStore(), (operation) => operation === 'saveRecord'));
    await expect(one.save({ stuckAtHistoryLength: 2 })).rejects.toThrow(/ENOSPC/);
    expect(one.conv.record).toEqual({});
  });

  it('when another process saved first, the fields this save changed are merged onto its record', async () => {
    const store = memoryStore();
    const messages = turn();
    await store.appendHistory('s', messages);
    const one = await process(store);
    const two = await process(store);
    await two.save({ ...two.conv.record, state: stateKeeping(messages[1]!.id) });
    await one.save({ ...one.conv.record, stuckAtHistoryLength: 3 });
    const stored = await store.loadRecord('s');
    expect(stored).toMatchObject({ stuckAtHistoryLength: 3, state: { firstKeptMessageId: messages[1]!.id } });
    expect(one.conv.record).toEqual(stored);
  });

  it('a field this save removed stays removed after the merge', async () => {
    const store = memoryStore();
    await store.saveRecord('s', { stuckAtHistoryLength: 1 });
    const one = await process(store);
    const two = await process(store);
    await two.save({
      ...two.conv.record,
      usage: { inputTokens: 5, contextMessageCount: 0, historyLength: 0, stateVersion: 0 },
    });
    await one.save({});
    const stored = await store.loadRecord('s');
    expect(stored?.stuckAtHistoryLength).toBeUndefined();
    expect(stored?.usage).toBeDefined();
    expect(one.conv.record).toEqual(stored);
  });

  it('a compaction computed from a state another process replaced throws StoreConflictError, memory caught up', async () => {
    const store = memoryStore();
    const messages = turn();
    await store.appendHistory('s', messages);
    const one = await process(store);
    const two = await process(store);
    await two.save({ state: stateKeeping(messages[1]!.id, 1) });
    const error = await one.save({ state: stateKeeping(messages[2]!.id, 1) }).catch((caught: unknown) => caught);
    expect(StoreConflictError.isInstance(error)).toBe(true);
    expect(one.conv.record).toEqual(await store.loadRecord('s'));
    expect(one.conv.record.state?.firstKeptMessageId).toBe(messages[1]!.id);
  });

  it("dropping a state is moot once another process's newer state applies to this history", async () => {
    const store = memoryStore();
    const messages = turn();
    await store.appendHistory('s', messages);
    await store.saveRecord('s', { state: stateKeeping('elsewhere', 1) });
    const one = await process(store); // the state is dropped on load: its kept message is not stored
    const two = await process(store);
    await two.save({ state: stateKeeping(messages[1]!.id, 2) });
    await one.save({ state: undefined });
    expect(one.conv.record.state?.firstKeptMessageId).toBe(messages[1]!.id);
    expect(one.conv.record).toEqual(await store.loadRecord('s'));
  });

  it(`gives up with the store's conflict after ${MERGE_ATTEMPTS} merges`, async () => {
    const inner = memoryStore();
    let saves = 0;
    // Another process saves before every one of ours.
    const store: SessionStore = {
      ...inner,
      async saveRecord(sessionId, record, options) {
        saves += 1;
        await inner.saveRecord(sessionId, { stuckAtHistoryLength: saves });
        return inner.saveRecord(sessionId, record, options);
      },
    };
    const one = await process(store);
    const error = await one
      .save({ usage: { inputTokens: 1, contextMessageCount: 0, historyLength: 0, stateVersion: 0 } })
      .catch((e) => e);
    expect(StoreConflictError.isInstance(error)).toBe(true);
    expect(saves).toBe(MERGE_ATTEMPTS + 1);
    expect(one.conv.record.usage).toBeUndefined();
  });
});
