import { memoryStore, StoreConflictError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { observedStore } from './observed-store.js';

describe('observedStore', () => {
  it('knows the record its session first loaded and saved since, not what later loads found', async () => {
    const inner = memoryStore();
    await inner.saveRecord('s', { stuckAtHistoryLength: 1 });
    const store = observedStore(inner);
    expect(store.recordJson).toBeUndefined();

    // The store stamps each record with its revision (compare-and-set).
    const first = await store.loadRecord('s');
    expect(first).toEqual({ stuckAtHistoryLength: 1, revision: expect.any(Number) });
    expect(store.recordJson).toBe(JSON.stringify(first));
    await inner.saveRecord('s', { stuckAtHistoryLength: 2 }); // another writer
    await store.loadRecord('s');
    expect(store.recordJson).toBe(JSON.stringify(first));

    await store.saveRecord('s', { stuckAtHistoryLength: 3 });
    expect(store.recordJson).toBe('{"stuckAtHistoryLength":3}');
    expect(await inner.loadRecord('s')).toEqual({ stuckAtHistoryLength: 3, revision: expect.any(Number) });
  });

  it('passes compare-and-set through: a save from a revision the store moved past is refused', async () => {
    const inner = memoryStore();
    const store = observedStore(inner);
    const revision = await store.saveRecord('s', { stuckAtHistoryLength: 1 });
    expect(typeof revision).toBe('number');
    await inner.saveRecord('s', { stuckAtHistoryLength: 2 }); // another writer moves it on
    await expect(
      store.saveRecord('s', { stuckAtHistoryLength: 3 }, { expectedRevision: revision as number }),
    ).rejects.toThrow(StoreConflictError);
    expect(await inner.loadRecord('s')).toMatchObject({ stuckAtHistoryLength: 2 });
    await store.clear('s');
    expect(store.recordJson).toBeUndefined();
    expect(await inner.loadRecord('s')).toBeUndefined();
  });
});
