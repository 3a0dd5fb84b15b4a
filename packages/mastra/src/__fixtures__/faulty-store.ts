import type { SessionStore } from '@compaction/core';

/** What {@link faultyStore} returns. */
export type FaultyStore = {
  /** The store to give the processor: `inner`'s methods, the next writes failing when armed. */
  store: SessionStore;
  /** The store underneath, read by the test to see what was really saved. */
  inner: SessionStore;
  /** The next `count` record writes (`saveRecord`) throw, after writing nothing. */
  failWrites(count: number): void;
  /** The `index`-th record write from now (0 = the next) throws, once. */
  failWriteAt(index: number): void;
  /** The next record read (`loadRecord`) throws, once (an unreadable disk, a database that is down). */
  failNextLoad(): void;
  /** No fault armed any more. */
  disarm(): void;
  /** How many reads and writes failed so far. */
  readonly failed: number;
};

/** A store that fails the record reads and writes a test arms, as a database that is down would: nothing is written. */
export function faultyStore(inner: SessionStore): FaultyStore {
  let failing = 0;
  let failAt = -1;
  let failed = 0;
  let failLoad = false;
  const store: SessionStore = {
    loadHistory: (...args) => inner.loadHistory(...args),
    appendHistory: (...args) => inner.appendHistory(...args),
    async loadRecord(...args) {
      if (failLoad) {
        failLoad = false;
        failed += 1;
        throw new Error('store unreadable (injected fault)');
      }
      return inner.loadRecord(...args);
    },
    clear: (...args) => inner.clear(...args),
    async saveRecord(...args) {
      const fail = failing > 0 || failAt === 0;
      if (failAt >= 0) failAt -= 1;
      if (fail) {
        if (failing > 0) failing -= 1;
        failed += 1;
        throw new Error('store unavailable (injected fault)');
      }
      return inner.saveRecord(...args);
    },
  };
  return {
    store,
    inner,
    failWrites(count) {
      failing = count;
    },
    failWriteAt(index) {
      failAt = index;
    },
    failNextLoad() {
      failLoad = true;
    },
    disarm() {
      failing = 0;
      failAt = -1;
      failLoad = false;
    },
    get failed() {
      return failed;
    },
  };
}
