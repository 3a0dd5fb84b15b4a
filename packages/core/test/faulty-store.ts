import type { SessionStore } from '../src/store/session-store.js';

/** The store operations a {@link faultyStore} can fail. */
export type StoreOperation = 'loadHistory' | 'appendHistory' | 'loadRecord' | 'saveRecord' | 'clear';

/** A disk-full error as Node reports it. */
export function enospc(operation: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${operation}`), { code: 'ENOSPC' });
}

/**
 * A real store with faults injected at its boundary: `failWhen(op, n)` decides
 * whether the n-th call (0-based, over all operations) of `op` fails before it
 * reaches the store, which then holds exactly what it held before. `calls`
 * lists every call, failed or not.
 */
export function faultyStore(
  inner: SessionStore,
  failWhen: (operation: StoreOperation, callIndex: number, sessionId: string) => boolean = () => false,
): SessionStore & { calls: StoreOperation[]; setFault(next: typeof failWhen): void } {
  let fault = failWhen;
  const calls: StoreOperation[] = [];
  const guard = (operation: StoreOperation, sessionId: string) => {
    const index = calls.length;
    calls.push(operation);
    if (fault(operation, index, sessionId)) throw enospc(`${operation} ${sessionId}`);
  };
  return {
    calls,
    setFault(next) {
      fault = next;
    },
    async loadHistory(sessionId, options) {
      guard('loadHistory', sessionId);
      return inner.loadHistory(sessionId, options);
    },
    async appendHistory(sessionId, messages) {
      guard('appendHistory', sessionId);
      return inner.appendHistory(sessionId, messages);
    },
    async loadRecord(sessionId) {
      guard('loadRecord', sessionId);
      return inner.loadRecord(sessionId);
    },
    async saveRecord(sessionId, record, options) {
      guard('saveRecord', sessionId);
      return inner.saveRecord(sessionId, record, options);
    },
    async clear(sessionId) {
      guard('clear', sessionId);
      return inner.clear(sessionId);
    },
  };
}
