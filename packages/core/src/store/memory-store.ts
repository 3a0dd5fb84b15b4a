import type { Message } from '../messages/types.js';
import { checkExpectedRevision, checkFrom } from './check-options.js';
import { decodeJson } from './codec/decode-json.js';
import { encodeMessages } from './codec/encode-messages.js';
import { encodeRecord } from './codec/encode-record.js';
import { StoreConflictError } from './errors/store-conflict-error.js';
import type { SessionRecord, SessionStore } from './session-store.js';

/**
 * A {@link SessionStore} in memory, for tests and short-lived processes. It
 * checks and copies what goes in exactly as the persistent stores serialize it
 * (so a `BigInt` or a cycle is refused here too, and `Uint8Array` and `Date`
 * survive), and copies what comes out, so callers can neither change stored
 * data nor see later changes through what they loaded. Compare-and-set and
 * revisions work as in every store.
 *
 * @example
 * const store = memoryStore();
 * await store.appendHistory('s1', [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
 */
export function memoryStore(): SessionStore {
  const histories = new Map<string, Message[]>();
  const records = new Map<string, SessionRecord>();
  /** Last revision per session; kept across `clear` so revisions never repeat. */
  const revisions = new Map<string, number>();
  const source = (sessionId: string, what: string) => `memory:${JSON.stringify(sessionId)}/${what}`;
  const currentRevision = (sessionId: string) => records.get(sessionId)?.revision ?? 0;

  return {
    async loadHistory(sessionId, options = {}) {
      const from = checkFrom(options, source(sessionId, 'history'));
      const history = histories.get(sessionId) ?? [];
      return structuredClone(from > 0 ? history.slice(from) : history);
    },
    async appendHistory(sessionId, messages) {
      const texts = encodeMessages(messages, source(sessionId, 'history'));
      const copies = texts.map((text) => decodeJson(text) as Message);
      const history = histories.get(sessionId);
      if (history) history.push(...copies);
      else if (copies.length > 0) histories.set(sessionId, copies);
      return history?.length ?? copies.length;
    },
    async loadRecord(sessionId) {
      const record = records.get(sessionId);
      return record === undefined ? undefined : structuredClone(record);
    },
    async saveRecord(sessionId, record, options = {}) {
      const key = source(sessionId, 'record');
      const text = encodeRecord(record, key);
      const expectedRevision = checkExpectedRevision(options, key);
      const actual = currentRevision(sessionId);
      if (expectedRevision !== undefined && expectedRevision !== actual) {
        throw new StoreConflictError({ sessionId, source: key, expectedRevision, actualRevision: actual });
      }
      const revision = (revisions.get(sessionId) ?? 0) + 1;
      revisions.set(sessionId, revision);
      records.set(sessionId, { ...(decodeJson(text) as SessionRecord), revision });
      return revision;
    },
    async clear(sessionId) {
      histories.delete(sessionId);
      records.delete(sessionId);
    },
  };
}
