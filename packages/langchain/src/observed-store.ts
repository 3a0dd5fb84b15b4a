import type { SessionRecord, SessionStore } from '@compaction/core';

/** A {@link SessionStore} that knows the record its session holds; see {@link observedStore}. */
export type ObservedStore = SessionStore & {
  /**
   * Whether `record`, as the store gives it back now (`loadRecord`), is the record the
   * session holds: the same content, the store's `revision` aside, and — when the store
   * numbers its records — the same revision (a revision is never reused, so another
   * writer's save of equal content is still another record).
   */
  holds(record: SessionRecord | undefined): boolean;
};

/**
 * `store`, watched: it remembers the record its session loaded first and what it
 * saved since (with the revision the store gave it), so a caller can tell whether the
 * store still holds that record (nothing else wrote one) before it reuses the session.
 */
export function observedStore(store: SessionStore): ObservedStore {
  let loaded = false;
  // What the session holds: its content without the store's revision, and that revision (undefined: the store gave none).
  let heldJson: string | undefined;
  let heldRevision: number | undefined;
  const hold = (record: SessionRecord | undefined, revision: unknown) => {
    heldJson = contentJson(record);
    heldRevision = typeof revision === 'number' ? revision : undefined;
  };
  return {
    holds(record) {
      if (heldRevision !== undefined && typeof record?.revision === 'number' && record.revision !== heldRevision)
        return false;
      return contentJson(record) === heldJson;
    },
    loadHistory: (sessionId, options) => store.loadHistory(sessionId, options),
    appendHistory: (sessionId, messages) => store.appendHistory(sessionId, messages),
    async loadRecord(sessionId) {
      const record = await store.loadRecord(sessionId);
      // Later loads (a check for a newer state) do not change what the session holds.
      if (!loaded) hold(record, record?.revision);
      loaded = true;
      return record;
    },
    async saveRecord(sessionId, record, options) {
      // Compare-and-set passes through: the inner store decides on `expectedRevision`.
      const revision = await store.saveRecord(sessionId, record, options);
      // The store stamps the saved record with this revision (a record passed in may carry an old one: ignored).
      hold(record, revision);
      return revision;
    },
    async clear(sessionId) {
      await store.clear(sessionId);
      hold(undefined, undefined);
    },
  };
}

/** `JSON.stringify` of a record without the `revision` its store stamps it with (undefined: none). */
function contentJson(record: SessionRecord | undefined): string | undefined {
  if (record === undefined) return undefined;
  if (record.revision === undefined) return JSON.stringify(record);
  const { revision: _revision, ...content } = record;
  return JSON.stringify(content);
}
