import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import type { SessionRecord, SessionStore } from '../store/session-store.js';
import type { ConversationState } from './conversation-state.js';

/** Suffix of the store key that journals a branch switch while it is written (see `switchBranch`). */
export const BRANCH_JOURNAL_SUFFIX = '#branch-journal';

/**
 * The persistence step: every change reaches the store first and memory
 * (`conversation.apply`) only once the store accepted it, so a failed write
 * leaves memory as it was and throws the store's own error.
 */
export type SessionPersistence = {
  /**
   * Loads the stored conversation into memory. A stored record that fails
   * validation (`InvalidStateError`) is set aside (the session goes on from the
   * history, and the next save replaces it) and passed to `onBadRecord`. A branch
   * switch a crash interrupted is finished first.
   */
  load(onBadRecord: (error: unknown) => void): Promise<void>;
  /** Appends to the history (messages validated by the caller). */
  append(messages: readonly Message[]): Promise<void>;
  /** Replaces the record. */
  saveRecord(record: SessionRecord): Promise<void>;
  /**
   * Makes `history` the conversation (a branch switch), never passing through a
   * stored state where a crash loses history: the new history is journaled
   * first, and `load` finishes a switch the journal shows was interrupted.
   */
  switchBranch(history: readonly Message[], record: SessionRecord): Promise<void>;
  /** Forgets the conversation (history and record). */
  clear(): Promise<void>;
  /**
   * Adopts a newer compaction state another process saved to a shared store for
   * this same history (so the same span is not compacted twice). Returns whether it did.
   */
  adoptStoredState(): Promise<boolean>;
};

/** Options of {@link createSessionPersistence}. */
export type SessionPersistenceOptions = {
  store: SessionStore;
  sessionId: string;
  /** Whether the history is written to the store (adapters whose framework keeps it pass false). */
  persistHistory: boolean;
  conversation: ConversationState;
};

/** The persistence step of one session over `options.store`. */
export function createSessionPersistence(options: SessionPersistenceOptions): SessionPersistence {
  const { store, sessionId, persistHistory, conversation } = options;
  const journalId = `${sessionId}${BRANCH_JOURNAL_SUFFIX}`;

  /** Set while a committed branch switch's history is still only in the journal. */
  let journaled: readonly Message[] | undefined;

  /**
   * Writes the journaled history as the stored history (with `record`, which the
   * store's `clear` dropped), then drops the journal. Repeatable: a failure part
   * way leaves the journal, and the next call starts over.
   */
  async function finishBranchSwitch(record: SessionRecord): Promise<void> {
    if (!journaled) return;
    await store.clear(sessionId);
    await store.appendHistory(sessionId, journaled);
    await store.saveRecord(sessionId, record);
    await store.clear(journalId);
    journaled = undefined;
  }

  async function loadRecord(onBadRecord: (error: unknown) => void): Promise<SessionRecord> {
    try {
      return (await store.loadRecord(sessionId)) ?? {};
    } catch (error) {
      if (!InvalidStateError.isInstance(error) && !InvalidStateError.isInstance((error as Error)?.cause)) throw error;
      onBadRecord(error);
      return {};
    }
  }

  return {
    async load(onBadRecord) {
      let history: Message[] = [];
      let journal: Message[] = [];
      if (persistHistory) {
        journal = await store.loadHistory(journalId);
        history = journal.length > 0 ? journal : await store.loadHistory(sessionId);
      }
      let record = await loadRecord(onBadRecord);
      const state = record.state;
      if (state && persistHistory && !history.some((message) => message.id === state.firstKeptMessageId)) {
        // The stored state does not belong to the stored history: keep the history, drop the state.
        record = { ...record, state: undefined };
      }
      if (journal.length > 0) {
        // A branch switch was committed (journal and record written) but not finished.
        journaled = journal;
        await finishBranchSwitch(record);
      }
      conversation.apply({ replace: history, record });
    },
    async append(messages) {
      if (messages.length === 0) return;
      if (persistHistory) {
        await finishBranchSwitch(conversation.record);
        await store.appendHistory(sessionId, messages);
      }
      conversation.apply({ append: messages });
    },
    async saveRecord(record) {
      await store.saveRecord(sessionId, record);
      conversation.apply({ record });
    },
    async switchBranch(history, record) {
      if (!persistHistory) {
        await store.saveRecord(sessionId, record);
        conversation.apply({ replace: history, record });
        return;
      }
      await finishBranchSwitch(conversation.record);
      await store.clear(journalId);
      await store.appendHistory(journalId, history);
      try {
        await store.saveRecord(sessionId, record);
      } catch (error) {
        await store.clear(journalId).catch(() => undefined);
        throw error;
      }
      // Committed: the journal is the stored history until it is copied over; a failure
      // here is retried before the next write (and by `load` after a restart).
      journaled = history;
      conversation.apply({ replace: history, record });
      await finishBranchSwitch(record).catch(() => undefined);
    },
    async clear() {
      await store.clear(sessionId);
      if (persistHistory) await store.clear(journalId);
      journaled = undefined;
      conversation.apply({ replace: [], record: {} });
    },
    async adoptStoredState() {
      let stored: SessionRecord | undefined;
      try {
        stored = await store.loadRecord(sessionId);
      } catch {
        return false; // unreadable now: compact on our own state
      }
      const state = stored?.state;
      if (!state || state.version <= conversation.version() || !conversation.ids.has(state.firstKeptMessageId)) {
        return false;
      }
      conversation.apply({ record: { ...conversation.record, state } });
      return true;
    },
  };
}
