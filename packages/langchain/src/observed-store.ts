import type { SessionStore } from '@compaction/core';

/** A {@link SessionStore} that knows the record its session holds; see {@link observedStore}. */
export type ObservedStore = SessionStore & {
  /** `JSON.stringify` of the record the session first loaded or last saved (undefined: none). */
  readonly recordJson: string | undefined;
};

/**
 * `store`, watched: it remembers the record its session loaded first and what it
 * saved since, so a caller can tell whether the store still holds that record
 * (nothing else wrote one) before it reuses the session.
 */
export function observedStore(store: SessionStore): ObservedStore {
  let recordJson: string | undefined;
  let loaded = false;
  return {
    get recordJson() {
      return recordJson;
    },
    loadHistory: (sessionId, options) => store.loadHistory(sessionId, options),
    appendHistory: (sessionId, messages) => store.appendHistory(sessionId, messages),
    async loadRecord(sessionId) {
      const record = await store.loadRecord(sessionId);
      // Later loads (a check for a newer state) do not change what the session holds.
      if (!loaded) recordJson = JSON.stringify(record);
      loaded = true;
      return record;
    },
    async saveRecord(sessionId, record, options) {
      // Compare-and-set passes through: the inner store decides on `expectedRevision`.
      const revision = await store.saveRecord(sessionId, record, options);
      recordJson = JSON.stringify(record);
      return revision;
    },
    async clear(sessionId) {
      await store.clear(sessionId);
      recordJson = undefined;
    },
  };
}
