import { createConversationCache, type SessionStore } from '@compaction/core';
import type { MastraCompositeStore } from '@mastra/core/storage';
import type { MemoryThread } from '../memory-thread.js';
import { threadMetadataStore } from './thread-metadata-store.js';

/** How many threads' run objects a storage's store keeps in line with its writes (the least recently used go). */
export const RUN_THREAD_OBJECTS = 10_000;

/** The thread object Mastra holds for a run. */
type ThreadObject = NonNullable<MemoryThread['object']>;

/** The default stores of one `CompactionProcessor`; see {@link runThreadStores}. */
export type RunThreadStores = {
  /**
   * The store of a run's conversation when the processor was given none: the
   * metadata of its Mastra thread, when the run has a `Memory` with storage and a
   * thread; undefined otherwise (the session keeps its record in memory).
   */
  storeOf(thread: MemoryThread): SessionStore | undefined;
};

/**
 * One {@link threadMetadataStore} per Mastra storage the processor's runs use.
 * Each write to a thread's metadata is copied onto the thread objects of its
 * runs still in flight (held weakly): Mastra saves that object back when it
 * generates the thread's title after a run, and a stale copy would put back the
 * compaction record of the run's start.
 */
export function runThreadStores(): RunThreadStores {
  type Entry = { store: SessionStore; objects: ReturnType<typeof createThreadObjects> };
  const byStorage = new WeakMap<MastraCompositeStore, Entry>();

  function createThreadObjects() {
    return createConversationCache<Set<WeakRef<ThreadObject>>>({
      maxBytes: RUN_THREAD_OBJECTS,
      sizeOf: () => 1,
    });
  }

  function entryOf(storage: MastraCompositeStore): Entry {
    const known = byStorage.get(storage);
    if (known) return known;
    const objects = createThreadObjects();
    const store = threadMetadataStore(storage, {
      onWrite(threadId, metadata) {
        const refs = objects.get(threadId);
        if (!refs) return;
        for (const ref of refs) {
          const object = ref.deref();
          if (object) object.metadata = { ...metadata };
          else refs.delete(ref);
        }
        if (refs.size === 0) objects.delete(threadId);
      },
    });
    const entry = { store, objects };
    byStorage.set(storage, entry);
    return entry;
  }

  return {
    storeOf(thread) {
      if (!thread.storage || !thread.threadId) return undefined;
      const { store, objects } = entryOf(thread.storage);
      const object = thread.object;
      if (object) {
        const refs = objects.obtain(thread.threadId, () => new Set());
        for (const ref of refs) if (!ref.deref()) refs.delete(ref);
        refs.add(new WeakRef(object));
      }
      return store;
    },
  };
}
