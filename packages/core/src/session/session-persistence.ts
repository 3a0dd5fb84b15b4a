import type { Message } from '../messages/types.js';
import { serialQueue } from '../store/serial-queue.js';
import type { SessionRecord } from '../store/session-store.js';
import { appendToHistory } from './append-to-history.js';
import { createBranchJournal } from './branch-journal.js';
import { compareAndSaveRecord } from './compare-and-save-record.js';
import { catchUpWithStore, loadConversation } from './load-conversation.js';
import type { SessionPersistenceOptions } from './session-persistence-options.js';

export { BRANCH_JOURNAL_COMMIT, BRANCH_JOURNAL_SUFFIX } from './branch-journal.js';
export type { SessionPersistenceOptions } from './session-persistence-options.js';

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
  /**
   * Replaces the record, by compare-and-set against the revision memory holds:
   * when another process saved first, memory catches up (record and history),
   * and the fields this save changed are merged onto the newer record and saved
   * again. A compaction (a new `state`) computed from a state another process
   * has replaced cannot be merged: it throws `StoreConflictError`, with memory
   * already caught up, so the caller recomputes.
   */
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
   * this same history (so the same span is not compacted twice), catching up
   * with the messages it appended first. Returns whether it did.
   */
  adoptStoredState(): Promise<boolean>;
};

/**
 * The persistence step of one session over `options.store`: loading and
 * appending (`load-conversation`, `append-to-history`), the record's
 * compare-and-set save (`compare-and-save-record`) and the branch journal
 * (`branch-journal`), with every store write and the memory change after it
 * run one at a time, so memory stays a prefix of the store.
 */
export function createSessionPersistence(options: SessionPersistenceOptions): SessionPersistence {
  const { store, sessionId, persistHistory, conversation } = options;
  const journal = createBranchJournal(options);
  const queue = serialQueue();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => queue(sessionId, task);

  return {
    async load(onBadRecord) {
      const committed = await loadConversation(options, () => journal.read(), onBadRecord);
      await journal.resume(committed);
    },
    append(messages) {
      if (messages.length === 0) return Promise.resolve();
      if (!persistHistory) {
        // Nothing to write: applied at once, so a caller that planned this append from the
        // history sees it before any other call plans its own.
        conversation.apply({ append: messages });
        return Promise.resolve();
      }
      return exclusive(() => appendToHistory(options, journal, messages));
    },
    saveRecord(record) {
      return exclusive(() => compareAndSaveRecord(options, record));
    },
    switchBranch(history, record) {
      return exclusive(() => journal.switchBranch(history, record));
    },
    clear() {
      return exclusive(async () => {
        // The journal first (a committed one copied over before): a failure then leaves the
        // stored conversation whole, as memory still holds it.
        if (persistHistory) await journal.clear();
        await store.clear(sessionId);
        conversation.apply({ replace: [], record: {} });
      });
    },
    adoptStoredState() {
      return exclusive(async () => {
        let stored: SessionRecord | undefined;
        try {
          stored = await store.loadRecord(sessionId);
        } catch {
          return false; // unreadable now: compact on our own state
        }
        const state = stored?.state;
        if (!state || state.version <= conversation.version()) return false;
        if (stored?.revision !== undefined && !journal.pending) {
          // A store with revisions: take the newer record and the messages appended before it.
          const version = conversation.version();
          await catchUpWithStore(options);
          return conversation.version() > version;
        }
        if (!conversation.ids.has(state.firstKeptMessageId)) return false;
        conversation.apply({ record: { ...conversation.record, state } });
        return true;
      });
    },
  };
}
