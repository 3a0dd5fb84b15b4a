import type { Message } from '../messages/types.js';
import type { SessionRecord, SessionStore } from './session-store.js';

/**
 * A {@link SessionStore} in memory, for tests and short-lived processes. It
 * keeps copies (`structuredClone`) going in and coming out, so callers can
 * neither change stored data nor see later changes through what they loaded.
 *
 * @example
 * const store = memoryStore();
 * await store.appendHistory('s1', [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
 */
export function memoryStore(): SessionStore {
  const histories = new Map<string, Message[]>();
  const records = new Map<string, SessionRecord>();

  return {
    async loadHistory(sessionId) {
      return structuredClone(histories.get(sessionId) ?? []);
    },
    async appendHistory(sessionId, messages) {
      const copies = structuredClone(messages) as Message[];
      const history = histories.get(sessionId);
      if (history) history.push(...copies);
      else histories.set(sessionId, copies);
    },
    async loadRecord(sessionId) {
      const record = records.get(sessionId);
      return record === undefined ? undefined : structuredClone(record);
    },
    async saveRecord(sessionId, record) {
      records.set(sessionId, structuredClone(record));
    },
    async clear(sessionId) {
      histories.delete(sessionId);
      records.delete(sessionId);
    },
  };
}
