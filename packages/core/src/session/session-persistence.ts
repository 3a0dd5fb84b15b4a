import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { StoreConflictError } from '../store/errors/store-conflict-error.js';
import type { SessionRecord, SessionStore } from '../store/session-store.js';
import type { ConversationState } from './conversation-state.js';

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

/** How many times a save whose record moved on is merged onto the newer one and tried again. */
const MERGE_ATTEMPTS = 20;

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
  /** Set when a switch that failed before its commit could not remove its journal. */
  let staleJournal = false;
  /** Store writes and the memory changes after them run one at a time, so memory stays a prefix of the store. */
  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  /** `record` with the revision the store gave it (stores before compare-and-set give none). */
  // biome-ignore lint/suspicious/noConfusingVoidType: stores written before compare-and-set resolve to void (see SessionStore).
  const revised = (record: SessionRecord, revision: number | void): SessionRecord =>
    typeof revision === 'number' ? { ...record, revision } : record;

  /**
   * Brings memory up to what the store holds now, after another process wrote:
   * the record first, then the messages appended after the ones memory has (so
   * the record's kept message is among them). A history that shrank (another
   * process cleared the conversation or switched its branch) is reloaded whole.
   */
  /** Replaces memory with what the store holds: the record first, then the whole history. */
  async function reloadAll(loaded?: SessionRecord): Promise<void> {
    let record = loaded ?? (await loadRecord(() => {}));
    const history = await store.loadHistory(sessionId);
    const state = record.state;
    if (state && !history.some((message) => message.id === state.firstKeptMessageId)) {
      record = { ...record, state: undefined };
    }
    conversation.apply({ replace: history, record });
  }

  async function refresh(onBadRecord: (error: unknown) => void = () => {}): Promise<void> {
    const record = await loadRecord(onBadRecord);
    if (!persistHistory) {
      conversation.apply({ record });
      return;
    }
    const known = conversation.history.length;
    const newer = await store.loadHistory(sessionId, { from: known });
    // A store that ignores `from` returns the whole history: its first message is one memory has.
    const whole = known > 0 && newer.length > 0 && conversation.ids.has(newer[0]?.id as string);
    const state = record.state;
    const has = (id: string) => conversation.ids.has(id) || newer.some((message) => message.id === id);
    if (state && !has(state.firstKeptMessageId)) {
      await reloadAll(record);
      return;
    }
    conversation.apply(whole ? { replace: newer, record } : { append: newer, record });
  }

  /**
   * Brings the journal in line before the history is written: drops a stale one,
   * and copies a committed one over the stored history (with memory's record,
   * which the store's `clear` drops; while it is not saved again, memory holds
   * no record either). Repeatable: a failure part way leaves the journal, and the
   * next write starts over.
   */
  async function settleJournal(): Promise<void> {
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
    conversation.apply({ record: revised(conversation.record, revision) });
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
      // The record first: a history read after it holds its kept message, even when another
      // process appends and compacts between the two reads.
      let record = await loadRecord(onBadRecord);
      let history: Message[] = [];
      let committed: Message[] | undefined;
      if (persistHistory) {
        const journal = await store.loadHistory(journalId);
        if (journal.at(-1)?.id === BRANCH_JOURNAL_COMMIT.id) committed = journal.slice(0, -1);
        // A journal without its commit entry is a switch that never happened: dropped first.
        else if (journal.length > 0) staleJournal = true;
        history = committed ?? (await store.loadHistory(sessionId));
      }
      const state = record.state;
      if (state && persistHistory && !history.some((message) => message.id === state.firstKeptMessageId)) {
        // The stored state does not belong to the stored history: keep the history, drop the state.
        record = { ...record, state: undefined };
      }
      conversation.apply({ replace: history, record });
      if (committed) journaled = committed; // committed but not finished: copied over now
      if (staleJournal || journaled) await settleJournal();
    },
    append(messages) {
      if (messages.length === 0) return Promise.resolve();
      if (!persistHistory) {
        // Nothing to write: applied at once, so a caller that planned this append from the
        // history sees it before any other call plans its own.
        conversation.apply({ append: messages });
        return Promise.resolve();
      }
      return exclusive(async () => {
        await settleJournal();
        const known = conversation.history.length;
        const length = await store.appendHistory(sessionId, messages);
        if (typeof length !== 'number' || length === known + messages.length) {
          conversation.apply({ append: messages });
          return;
        }
        // Other processes appended meanwhile: take their messages and ours in the store's order.
        if (length > known + messages.length) {
          // Ours end at `length`; later appends by others may follow them already.
          const newer = await store.loadHistory(sessionId, { from: known });
          const ours = newer.slice(length - known - messages.length, length - known);
          const inPlace =
            ours.length === messages.length && ours.every((message, index) => message.id === messages[index]?.id);
          if (inPlace && !conversation.ids.has(newer[0]?.id as string)) {
            conversation.apply({ append: newer });
            return;
          }
        }
        // The stored history shrank (cleared or switched elsewhere): reload it whole.
        await reloadAll();
      });
    },
    saveRecord(record) {
      return exclusive(async () => {
        const base = conversation.record;
        const changed = (Object.keys(record) as (keyof SessionRecord)[]).filter(
          (key) => key !== 'revision' && record[key] !== base[key],
        );
        for (const key of Object.keys(base) as (keyof SessionRecord)[]) {
          if (!(key in record) && key !== 'revision') changed.push(key);
        }
        let next = record;
        for (let attempt = 0; ; attempt += 1) {
          try {
            const expectedRevision = conversation.record.revision ?? 0;
            const revision = await store.saveRecord(sessionId, next, { expectedRevision });
            conversation.apply({ record: revised(next, revision) });
            return;
          } catch (error) {
            if (!StoreConflictError.isInstance(error) || attempt >= MERGE_ATTEMPTS) throw error;
            await refresh();
          }
          const fresh = conversation.record;
          if (changed.includes('state') && (fresh.state?.version ?? 0) !== (base.state?.version ?? 0)) {
            // Another process compacted meanwhile. Dropping a state that no longer applies is
            // moot when the newer state applies to this history; a compaction must be recomputed.
            if (record.state === undefined && fresh.state && conversation.ids.has(fresh.state.firstKeptMessageId))
              return;
            if (record.state !== undefined) {
              throw new StoreConflictError({
                sessionId,
                source: sessionId,
                expectedRevision: base.revision ?? 0,
                actualRevision: fresh.revision ?? 0,
              });
            }
          }
          next = { ...fresh };
          for (const key of changed) {
            if (record[key] === undefined) delete next[key];
            else (next as Record<string, unknown>)[key] = record[key];
          }
        }
      });
    },
    switchBranch(history, record) {
      return exclusive(async () => {
        if (!persistHistory) {
          const revision = await store.saveRecord(sessionId, record);
          conversation.apply({ replace: history, record: revised(record, revision) });
          return;
        }
        await settleJournal();
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
              (again) => revised(conversation.record, again),
              () => revised(record, revision),
            );
            conversation.apply({ record: restored });
          }
          await settleJournal().catch(() => undefined);
          throw error;
        }
        // Committed: the journal is the stored history until it is copied over; a failure
        // here is retried before the next write (and by `load` after a restart).
        journaled = history;
        conversation.apply({ replace: history, record: revised(record, revision) });
        await settleJournal().catch(() => undefined);
      });
    },
    clear() {
      return exclusive(async () => {
        // The journal first (a committed one copied over before): a failure then leaves the
        // stored conversation whole, as memory still holds it.
        if (persistHistory) {
          await settleJournal();
          await store.clear(journalId);
        }
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
        if (stored?.revision !== undefined && journaled === undefined) {
          // A store with revisions: take the newer record and the messages appended before it.
          const version = conversation.version();
          await refresh();
          return conversation.version() > version;
        }
        if (!conversation.ids.has(state.firstKeptMessageId)) return false;
        conversation.apply({ record: { ...conversation.record, state } });
        return true;
      });
    },
  };
}
