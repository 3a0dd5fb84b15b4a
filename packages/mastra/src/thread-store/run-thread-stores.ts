import type { SessionStore } from '@compaction/core';
import type { MastraCompositeStore } from '@mastra/core/storage';
import type { MemoryThread } from '../memory-thread.js';
import { threadMetadataStore } from './thread-metadata-store.js';

/** The default stores of one `CompactionProcessor`; see {@link runThreadStores}. */
export type RunThreadStores = {
  /**
   * The store of a run's conversation when the processor was given none: the
   * metadata of its Mastra thread, when the run has a `Memory` with storage and a
   * thread; undefined otherwise (the session keeps its record in memory).
   */
  storeOf(thread: MemoryThread): SessionStore | undefined;
};

/** One {@link threadMetadataStore} per Mastra storage the processor's runs use (held weakly). */
export function runThreadStores(): RunThreadStores {
  const byStorage = new WeakMap<MastraCompositeStore, SessionStore>();
  return {
    storeOf(thread) {
      if (!thread.storage || !thread.threadId) return undefined;
      let store = byStorage.get(thread.storage);
      if (!store) {
        store = threadMetadataStore(thread.storage);
        byStorage.set(thread.storage, store);
      }
      return store;
    },
  };
}
