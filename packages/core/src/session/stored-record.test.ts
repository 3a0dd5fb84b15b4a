import { describe, expect, it } from 'vitest';
import { faultyStore } from '../../test/faulty-store.js';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { loadStoredRecord, withRevision } from './stored-record.js';

describe('withRevision', () => {
  it('adds the revision a store returned, and leaves the record as it is when the store returned none', () => {
    const record = { stuckAtHistoryLength: 3 };
    expect(withRevision(record, 7)).toEqual({ stuckAtHistoryLength: 3, revision: 7 });
    expect(withRevision(record, undefined)).toBe(record);
    expect(record).toEqual({ stuckAtHistoryLength: 3 });
  });
});

describe('loadStoredRecord', () => {
  it('reads the stored record, or {} when there is none', async () => {
    const store = memoryStore();
    expect(await loadStoredRecord({ store, sessionId: 's' }, () => undefined)).toEqual({});
    await store.saveRecord('s', { stuckAtHistoryLength: 2 });
    expect(await loadStoredRecord({ store, sessionId: 's' }, () => undefined)).toEqual({
      stuckAtHistoryLength: 2,
      revision: 1,
    });
  });

  it('sets aside a record that fails validation, thrown as is or as the cause of a store error', async () => {
    const bad = new InvalidStateError({ problem: 'state.summary must be a string', source: 'memory:"s"/record' });
    const wrapped = new Error('the store could not read the record', { cause: bad });
    for (const thrown of [bad, wrapped]) {
      const store: SessionStore = { ...memoryStore(), loadRecord: async () => Promise.reject(thrown) };
      const reported: unknown[] = [];
      expect(await loadStoredRecord({ store, sessionId: 's' }, (error) => reported.push(error))).toEqual({});
      expect(reported).toEqual([thrown]);
    }
  });

  it('throws any other failure and reports nothing', async () => {
    const store = faultyStore(memoryStore(), (operation) => operation === 'loadRecord');
    const reported: unknown[] = [];
    await expect(loadStoredRecord({ store, sessionId: 's' }, (error) => reported.push(error))).rejects.toThrow(
      /ENOSPC/,
    );
    expect(reported).toEqual([]);
  });
});
