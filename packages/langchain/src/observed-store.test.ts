import { memoryStore } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { observedStore } from './observed-store.js';

describe('observedStore', () => {
  it('knows the record its session first loaded and saved since, not what later loads found', async () => {
    const inner = memoryStore();
    await inner.saveRecord('s', { stuckAtHistoryLength: 1 });
    const store = observedStore(inner);
    expect(store.recordJson).toBeUndefined();

    expect(await store.loadRecord('s')).toEqual({ stuckAtHistoryLength: 1 });
    expect(store.recordJson).toBe('{"stuckAtHistoryLength":1}');
    await inner.saveRecord('s', { stuckAtHistoryLength: 2 }); // another writer
    await store.loadRecord('s');
    expect(store.recordJson).toBe('{"stuckAtHistoryLength":1}');

    await store.saveRecord('s', { stuckAtHistoryLength: 3 });
    expect(store.recordJson).toBe('{"stuckAtHistoryLength":3}');
    expect(await inner.loadRecord('s')).toEqual({ stuckAtHistoryLength: 3 });
    await store.clear('s');
    expect(store.recordJson).toBeUndefined();
    expect(await inner.loadRecord('s')).toBeUndefined();
  });
});
