import { InvalidStateError, type SessionRecord, type SessionStore, validateSessionRecord } from '@compaction/core';

/** Where the record comes from, as validation errors name it. */
const SOURCE = 'LangChain agent state "_compaction"';

/** A {@link SessionStore} over one record taken from the agent state; see {@link agentStateStore}. */
export type AgentStateStore = SessionStore & {
  /** The record as the session left it: what goes back into the agent state. */
  readonly record: SessionRecord | undefined;
  /** Whether the session saved or cleared the record. */
  readonly changed: boolean;
};

/**
 * A `SessionStore` for the duration of one model call: it reads the compaction
 * record from the agent state (`initial`) and holds what the session saves, so
 * the middleware can return it as a state update that the checkpointer persists.
 * The agent state keeps the messages, so the history methods store nothing (the
 * session runs with `persistHistory: false`). Records are copied in and out: the
 * state's record is never changed (it is copied when read, not when the store is
 * made, as a call that reuses its session never reads it). A record read back from a
 * checkpointer is validated (`validateSessionRecord`) like any store's: an invalid one
 * throws `InvalidStateError` — the session reports it (`store:error`) and goes on from the
 * history — and is replaced by an empty record, so the state update sets it aside.
 */
export function agentStateStore(initial: SessionRecord | null | undefined): AgentStateStore {
  let record = initial ?? undefined;
  let changed = false;
  return {
    get record() {
      return record === undefined ? undefined : structuredClone(record);
    },
    get changed() {
      return changed;
    },
    async loadHistory() {
      return [];
    },
    async appendHistory() {},
    async loadRecord() {
      if (record === undefined) return undefined;
      try {
        return validateSessionRecord(structuredClone(record), SOURCE);
      } catch (error) {
        if (!InvalidStateError.isInstance(error)) throw error;
        // Set aside: the state gets an empty record back, so the bad one is reported once, not on every call.
        record = {};
        changed = true;
        throw error;
      }
    },
    async saveRecord(_sessionId, next) {
      record = structuredClone(next);
      changed = true;
    },
    async clear() {
      record = undefined;
      changed = true;
    },
  };
}
