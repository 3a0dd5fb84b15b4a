import { memoryStore, type SessionRecord, StoreConflictError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { observedStore } from './observed-store.js';

describe('observedStore', () => {
  it('knows the record its session first loaded and saved since, not what later loads found', async () => {
    const inner = memoryStore();
    await inner.saveRecord('s', { stuckAtHistoryLength: 1 });
    const store = observedStore(inner);
    expect(store.holds(undefined)).toBe(true); // nothing loaded yet

    // The store stamps each record with its revision (compare-and-set).
    const first = await store.loadRecord('s');
    expect(first).toEqual({ stuckAtHistoryLength: 1, revision: expect.any(Number) });
    expect(store.holds(first)).toBe(true);
    expect(store.holds(undefined)).toBe(false);
    await inner.saveRecord('s', { stuckAtHistoryLength: 2 }); // another writer
    const later = await store.loadRecord('s');
    expect(store.holds(first)).toBe(true);
    expect(store.holds(later)).toBe(false);

    await store.saveRecord('s', { stuckAtHistoryLength: 3 });
    const saved = await inner.loadRecord('s');
    expect(saved).toEqual({ stuckAtHistoryLength: 3, revision: expect.any(Number) });
    expect(store.holds(saved)).toBe(true);
    expect(store.holds(first)).toBe(false);
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
    expect(store.holds(undefined)).toBe(true);
    expect(await inner.loadRecord('s')).toBeUndefined();
  });

  it('holds the record it saved as the store gives it back, stamped with the revision of that save', async () => {
    const inner = memoryStore();
    const store = observedStore(inner);
    expect(store.holds(await inner.loadRecord('s'))).toBe(true); // nothing loaded, nothing stored

    // A record passed in may carry an old revision: the store stamps its own.
    await store.saveRecord('s', { stuckAtHistoryLength: 1, revision: 99 });
    const saved = await inner.loadRecord('s');
    expect(saved?.revision).not.toBe(99);
    expect(store.holds(saved)).toBe(true);

    await inner.saveRecord('s', { stuckAtHistoryLength: 1 }); // another writer, the same content: another record
    expect(store.holds(await inner.loadRecord('s'))).toBe(false);
    await store.saveRecord('s', { stuckAtHistoryLength: 2 });
    expect(store.holds(await inner.loadRecord('s'))).toBe(true);
    await inner.saveRecord('s', { stuckAtHistoryLength: 3 }); // another writer, other content
    expect(store.holds(await inner.loadRecord('s'))).toBe(false);
    await store.clear('s');
    expect(store.holds(await inner.loadRecord('s'))).toBe(true);
  });

  it('holds the record it first loaded, by revision and content; later loads change nothing', async () => {
    const inner = memoryStore();
    await inner.saveRecord('s', { stuckAtHistoryLength: 1 });
    const store = observedStore(inner);
    const first = await store.loadRecord('s');
    expect(store.holds(await inner.loadRecord('s'))).toBe(true);
    expect(store.holds({ ...first, revision: (first?.revision ?? 0) + 1 })).toBe(false);
    expect(store.holds({ ...first, stuckAtHistoryLength: 2 })).toBe(false);
    expect(store.holds(undefined)).toBe(false);
    await inner.saveRecord('s', { stuckAtHistoryLength: 2 });
    await store.loadRecord('s');
    expect(store.holds(first)).toBe(true);
  });

  it('compares content alone over a store without revisions (one written before compare-and-set)', async () => {
    const inner = memoryStore();
    const unnumbered = {
      ...inner,
      async loadRecord(sessionId: string) {
        const record = await inner.loadRecord(sessionId);
        if (record === undefined) return undefined;
        const { revision: _revision, ...content } = record;
        return content;
      },
      async saveRecord(sessionId: string, record: SessionRecord) {
        await inner.saveRecord(sessionId, record);
      },
    };
    const store = observedStore(unnumbered);
    await store.saveRecord('s', { stuckAtHistoryLength: 1 });
    expect(store.holds(await unnumbered.loadRecord('s'))).toBe(true);
    await inner.saveRecord('s', { stuckAtHistoryLength: 2 });
    expect(store.holds(await unnumbered.loadRecord('s'))).toBe(false);
  });
});
