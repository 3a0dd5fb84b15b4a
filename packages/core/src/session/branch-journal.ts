import type { Message } from '../messages/types.js';
import type { SessionRecord } from '../store/session-store.js';
import type { SessionPersistenceOptions } from './session-persistence-options.js';
import { withRevision } from './stored-record.js';

/** Suffix of the store key that journals a branch switch while it is written (see `switchBranch`). */
export const BRANCH_JOURNAL_SUFFIX = '#branch-journal';

/**
 * The journal entry that commits a branch switch: a journal that does not end
 * with it was never committed and is dropped, one that does is finished.
 */
export const BRANCH_JOURNAL_COMMIT: Message = {
  id: 'compaction:branch-journal-commit',
  role: 'system',
  parts: [{ type: 'text', text: 'branch switch committed' }],
};

/**
 * The branch journal of one session: a branch switch writes the new history
 * under `sessionId + BRANCH_JOURNAL_SUFFIX` first and commits it with
 * {@link BRANCH_JOURNAL_COMMIT}, so no crash leaves a stored state where history
 * is lost. Its methods are not serialized: the caller runs them, and its other
 * store writes, one at a time.
 */
export type BranchJournal = {
  /**
   * Reads the journal on load: resolves to the history of a committed switch
   * (which {@link BranchJournal.resume} finishes), or undefined; a journal
   * without its commit entry is a switch that never happened, marked to be
   * dropped before the history is written again.
   */
  read(): Promise<readonly Message[] | undefined>;
  /** After load: takes over the switch `read` found committed, and finishes whatever the journal left. */
  resume(committed: readonly Message[] | undefined): Promise<void>;
  /**
   * Brings the journal in line before the history is written: drops a stale
   * one, and copies a committed one over the stored history (with memory's
   * record, which the store's `clear` drops; while it is not saved again, memory
   * holds no record either). Repeatable: a failure part way leaves the journal,
   * and the next call starts over.
   */
  settle(): Promise<void>;
  /**
   * Makes `history` the conversation with `record`: the record is saved, then
   * the history is journaled and committed, then copied over the stored one.
   * A failure before the commit leaves memory and the store on the old branch
   * and is thrown; one after it is retried by the next {@link BranchJournal.settle}.
   */
  switchBranch(history: readonly Message[], record: SessionRecord): Promise<void>;
  /** Settles the journal and removes it (before the conversation itself is cleared). */
  clear(): Promise<void>;
  /** Whether a committed switch's history is still only in the journal. */
  readonly pending: boolean;
};

/** The branch journal of `options.sessionId` in `options.store`. */
export function createBranchJournal(options: SessionPersistenceOptions): BranchJournal {
  const { store, sessionId, persistHistory, conversation } = options;
  const journalId = `${sessionId}${BRANCH_JOURNAL_SUFFIX}`;
  /** Set while a committed branch switch's history is still only in the journal. */
  let journaled: readonly Message[] | undefined;
  /** Set when a switch that failed before its commit could not remove its journal. */
  let staleJournal = false;

  async function settle(): Promise<void> {
    if (staleJournal) {
      await store.clear(journalId);
      staleJournal = false;
    }
    if (!journaled) return;
    await store.clear(sessionId);
    // biome-ignore lint/suspicious/noConfusingVoidType: stores written before compare-and-set resolve to void (see SessionStore).
    let revision: number | void;
    try {
      await store.appendHistory(sessionId, journaled);
      revision = await store.saveRecord(sessionId, conversation.record);
    } catch (error) {
      conversation.apply({ record: {} });
      throw error;
    }
    await store.clear(journalId);
    journaled = undefined;
    conversation.apply({ record: withRevision(conversation.record, revision) });
  }

  return {
    get pending() {
      return journaled !== undefined;
    },
    async read() {
      const journal = await store.loadHistory(journalId);
      if (journal.at(-1)?.id === BRANCH_JOURNAL_COMMIT.id) return journal.slice(0, -1);
      // A journal without its commit entry is a switch that never happened: dropped first.
      if (journal.length > 0) staleJournal = true;
      return undefined;
    },
    async resume(committed) {
      if (committed) journaled = committed; // committed but not finished: copied over now
      if (staleJournal || journaled) await settle();
    },
    settle,
    async switchBranch(history, record) {
      if (!persistHistory) {
        const revision = await store.saveRecord(sessionId, record);
        conversation.apply({ replace: history, record: withRevision(record, revision) });
        return;
      }
      await settle();
      await store.clear(journalId);
      // The record first (a state a branch keeps is valid on both: its kept message is in
      // the common prefix), then the commit entry: only a committed journal is finished.
      // biome-ignore lint/suspicious/noConfusingVoidType: stores written before compare-and-set resolve to void (see SessionStore).
      let revision: number | void;
      let saved = false;
      try {
        await store.appendHistory(journalId, history);
        revision = await store.saveRecord(sessionId, record);
        saved = true;
        await store.appendHistory(journalId, [BRANCH_JOURNAL_COMMIT]);
      } catch (error) {
        // Not committed: the journal must go before the history is written again.
        staleJournal = true;
        if (saved) {
          // Put memory's record back; when the store refuses, memory takes the one it holds
          // (valid on either branch, see above), so the two never disagree.
          const restored = await store.saveRecord(sessionId, conversation.record).then(
            (again) => withRevision(conversation.record, again),
            () => withRevision(record, revision),
          );
          conversation.apply({ record: restored });
        }
        await settle().catch(() => undefined);
        throw error;
      }
      // Committed: the journal is the stored history until it is copied over; a failure
      // here is retried before the next write (and by `load` after a restart).
      journaled = history;
      conversation.apply({ replace: history, record: withRevision(record, revision) });
      await settle().catch(() => undefined);
    },
    async clear() {
      await settle();
      await store.clear(journalId);
    },
  };
}
