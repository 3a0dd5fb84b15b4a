import {
  checkExpectedRevision,
  checkFrom,
  InvalidSettingsError,
  InvalidStateError,
  type SessionRecord,
  type SessionStore,
  StoreConflictError,
  StoreError,
  type StoreOperation,
} from '@compaction/core';
import { serialQueue } from '@compaction/core/internal';
import type { StorageThreadType } from '@mastra/core/memory';
import type { MastraCompositeStore, MemoryStorage } from '@mastra/core/storage';
import {
  currentRevision,
  lastIssuedRevision,
  nextThreadRevision,
  readThreadRecordEntry,
  threadRecordEntry,
} from './thread-record-entry.js';

/** The metadata key the compaction record is kept under by default. */
export const THREAD_METADATA_KEY = 'compaction';

/** Options of {@link threadMetadataStore}. */
export type ThreadMetadataStoreOptions = {
  /**
   * The key of the thread's metadata that holds the compaction record. Every
   * other key of the metadata is left as it is.
   * @default 'compaction'
   */
  key?: string;
  /**
   * The resource a save to a thread that does not exist yet creates it under.
   * Without it such a save is a `StoreError` (Mastra creates a run's thread
   * before the processors run, so `CompactionProcessor` never needs it).
   * @default undefined (a missing thread is an error)
   */
  resourceId?: string;
};

/**
 * A `SessionStore` that keeps each conversation's compaction record (summary
 * state, cut point, usage, calibration) in the metadata of the Mastra thread of
 * the same id, in the storage Mastra `Memory` already uses — no second
 * database. The messages stay in Mastra memory, so the store holds no history:
 * `loadHistory` is empty and `appendHistory` of any message is refused (use it
 * with `persistHistory: false`, as `CompactionProcessor` does).
 *
 * Compare-and-set: the metadata entry carries a revision, and a save re-reads the
 * thread, compares and writes in one step serialized per thread through Mastra's
 * `updateThreadMetadata` — atomic within this storage instance, that is, within
 * one process. Mastra storage has no conditional update across processes: servers
 * that serve one thread at the same time should use a `postgresStore` or
 * `redisStore` instead. A save from a revision the thread no longer holds throws
 * `StoreConflictError` and writes nothing; other metadata keys are never changed.
 * A corrupt entry under the key throws `StoreError` naming the thread (its cause
 * an `InvalidStateError`): the session reports it and starts over from the history.
 *
 * @example
 * const storage = new LibSQLStore({ id: 'app', url: 'file:app.db' });
 * const compaction = new CompactionProcessor({ store: threadMetadataStore(storage) });
 */
export function threadMetadataStore(
  storage: Pick<MastraCompositeStore, 'getStore'>,
  options: ThreadMetadataStoreOptions = {},
): SessionStore {
  const key = options.key ?? THREAD_METADATA_KEY;
  if (typeof key !== 'string' || key === '') {
    throw new InvalidSettingsError({
      setting: 'key',
      problem: `must be a non-empty string (the thread metadata key), got ${JSON.stringify(key) ?? String(key)}`,
    });
  }
  const resourceId = options.resourceId;
  const source = (threadId: string) => `Mastra thread ${JSON.stringify(threadId)} metadata key ${JSON.stringify(key)}`;
  /** Writes of one thread, one at a time, where the storage has no `updateThreadMetadata` of its own. */
  const writes = serialQueue();

  async function memoryDomain(operation: StoreOperation, threadId: string): Promise<MemoryStorage> {
    const domain = await storage.getStore('memory');
    if (!domain) {
      throw new StoreError({
        operation,
        source: source(threadId),
        problem:
          'the Mastra storage has no memory domain to keep threads in; pass a storage that Mastra Memory can use',
      });
    }
    return domain;
  }

  /**
   * Replaces the entry under the key with what `change` returns for the current one
   * (nothing: no write), in one read-modify-write serialized per thread. Resolves to
   * the thread as stored after it, or null when there is no such thread.
   */
  async function updateEntry(
    domain: MemoryStorage,
    threadId: string,
    change: (current: unknown) => unknown,
  ): Promise<StorageThreadType | null> {
    const update = (thread: StorageThreadType): Record<string, unknown> | undefined => {
      const metadata = thread.metadata ?? {};
      const next = change(metadata[key]);
      // The whole metadata: right whether the adapter merges the keys or replaces them.
      return next === undefined ? undefined : { ...metadata, [key]: next };
    };
    if (typeof domain.updateThreadMetadata === 'function') {
      return domain.updateThreadMetadata({ id: threadId, update });
    }
    return writes(threadId, async () => {
      const thread = await domain.getThreadById({ threadId });
      if (!thread) return null;
      const metadata = update(thread);
      if (metadata === undefined) return thread;
      return domain.updateThread({ id: threadId, title: thread.title ?? '', metadata });
    });
  }

  return {
    async loadHistory(threadId, loadOptions) {
      checkFrom(loadOptions, source(threadId));
      return [];
    },
    async appendHistory(threadId, messages) {
      if (messages.length === 0) return 0;
      throw new StoreError({
        operation: 'appendHistory',
        source: source(threadId),
        problem:
          'this store keeps only the compaction record; the messages stay in Mastra memory. Nothing was written: ' +
          'create the session with persistHistory: false (CompactionProcessor does), or use a store that keeps a history',
      });
    },
    async loadRecord(threadId) {
      const where = source(threadId);
      let thread: StorageThreadType | null;
      try {
        thread = await (await memoryDomain('loadRecord', threadId)).getThreadById({ threadId });
      } catch (error) {
        throw StoreError.wrap(error, 'loadRecord', where);
      }
      try {
        return readThreadRecordEntry(thread?.metadata?.[key], where).record;
      } catch (error) {
        if (!InvalidStateError.isInstance(error)) throw error;
        throw new StoreError({ operation: 'loadRecord', source: where, problem: error.message, cause: error });
      }
    },
    async saveRecord(threadId, record: SessionRecord, saveOptions) {
      const where = source(threadId);
      const expectedRevision = checkExpectedRevision(saveOptions, where);
      const check = threadRecordEntry(record, 0, where); // refuses an invalid record before anything is read
      let conflict: number | undefined;
      let revision = 0;
      // Pure but for its outcome: an adapter that retries the read-modify-write calls it again.
      const change = (current: unknown) => {
        conflict = undefined;
        const actual = currentRevision(current, where);
        if (expectedRevision !== undefined && expectedRevision !== actual) {
          conflict = actual;
          return undefined;
        }
        revision = nextThreadRevision(lastIssuedRevision(current));
        return { ...check, revision };
      };
      let thread: StorageThreadType | null;
      try {
        const domain = await memoryDomain('saveRecord', threadId);
        thread = await updateEntry(domain, threadId, change);
        if (!thread && conflict === undefined && resourceId !== undefined) {
          const entry = change(undefined);
          if (entry !== undefined) {
            const now = new Date();
            thread = await domain.saveThread({
              thread: {
                id: threadId,
                resourceId,
                title: '',
                metadata: { [key]: entry },
                createdAt: now,
                updatedAt: now,
              },
            });
          }
        }
      } catch (error) {
        throw StoreError.wrap(error, 'saveRecord', where);
      }
      if (conflict !== undefined) {
        throw new StoreConflictError({
          sessionId: threadId,
          source: where,
          expectedRevision: expectedRevision ?? 0,
          actualRevision: conflict,
        });
      }
      if (!thread) {
        throw new StoreError({
          operation: 'saveRecord',
          source: where,
          problem:
            'there is no such thread, and the record lives in its metadata. Nothing was saved: create the thread ' +
            'first (Mastra Memory does when a run starts), or pass resourceId to create it',
        });
      }
      return revision;
    },
    async clear(threadId) {
      const where = source(threadId);
      try {
        const domain = await memoryDomain('clear', threadId);
        await updateEntry(domain, threadId, (current) =>
          current === undefined ? undefined : { revision: nextThreadRevision(lastIssuedRevision(current)) },
        );
      } catch (error) {
        throw StoreError.wrap(error, 'clear', where);
      }
    },
  };
}
