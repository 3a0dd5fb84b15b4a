import { StoreConflictError } from '../store/errors/store-conflict-error.js';
import type { SessionRecord } from '../store/session-store.js';
import { catchUpWithStore } from './load-conversation.js';
import type { SessionPersistenceOptions } from './session-persistence-options.js';
import { withRevision } from './stored-record.js';

/** How many times a save whose record moved on is merged onto the newer one and tried again. */
export const MERGE_ATTEMPTS = 20;

/**
 * Replaces the record by compare-and-set against the revision memory holds,
 * then memory's. When another process saved first, memory catches up (record
 * and history) and the fields this save changed (compared with memory's record
 * when it was called) are merged onto the newer record and saved again, up to
 * {@link MERGE_ATTEMPTS} times. A compaction (a new `state`) computed from a
 * state another process has replaced cannot be merged: it throws
 * `StoreConflictError`, with memory already caught up, so the caller
 * recomputes; dropping a state is moot once the newer one applies to this
 * history. The caller runs it one write at a time.
 */
export async function compareAndSaveRecord(options: SessionPersistenceOptions, record: SessionRecord): Promise<void> {
  const { store, sessionId, conversation } = options;
  const base = conversation.record;
  const changed = (Object.keys(record) as (keyof SessionRecord)[]).filter(
    (key) => key !== 'revision' && record[key] !== base[key],
  );
  for (const key of Object.keys(base) as (keyof SessionRecord)[]) {
    if (!(key in record) && key !== 'revision') changed.push(key);
  }
  let next = record;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const expectedRevision = conversation.record.revision ?? 0;
      const revision = await store.saveRecord(sessionId, next, { expectedRevision });
      conversation.apply({ record: withRevision(next, revision) });
      return;
    } catch (error) {
      if (!StoreConflictError.isInstance(error) || attempt >= MERGE_ATTEMPTS) throw error;
      await catchUpWithStore(options);
    }
    const fresh = conversation.record;
    if (changed.includes('state') && (fresh.state?.version ?? 0) !== (base.state?.version ?? 0)) {
      // Another process compacted meanwhile. Dropping a state that no longer applies is
      // moot when the newer state applies to this history; a compaction must be recomputed.
      if (record.state === undefined && fresh.state && conversation.ids.has(fresh.state.firstKeptMessageId)) return;
      if (record.state !== undefined) {
        throw new StoreConflictError({
          sessionId,
          source: sessionId,
          expectedRevision: base.revision ?? 0,
          actualRevision: fresh.revision ?? 0,
        });
      }
    }
    next = { ...fresh };
    for (const key of changed) {
      if (record[key] === undefined) delete next[key];
      else (next as Record<string, unknown>)[key] = record[key];
    }
  }
}
