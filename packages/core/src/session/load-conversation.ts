import type { Message } from '../messages/types.js';
import type { SessionRecord } from '../store/session-store.js';
import type { SessionPersistenceOptions } from './session-persistence-options.js';
import { loadStoredRecord } from './stored-record.js';

/**
 * Loads the stored conversation into memory: the record first (a history read
 * after it holds its kept message, even when another process appends and
 * compacts between the two reads), then the history, or the one a committed
 * branch journal holds (`readJournal`, see `createBranchJournal`). A stored
 * state whose kept message is not in that history is dropped; the history is
 * kept. Resolves to the journal's committed history, which the caller finishes
 * writing.
 */
export async function loadConversation(
  options: SessionPersistenceOptions,
  readJournal: () => Promise<readonly Message[] | undefined>,
  onBadRecord: (error: unknown) => void,
): Promise<readonly Message[] | undefined> {
  const { store, sessionId, persistHistory, conversation } = options;
  let record = await loadStoredRecord(options, onBadRecord);
  let history: readonly Message[] = [];
  let committed: readonly Message[] | undefined;
  if (persistHistory) {
    committed = await readJournal();
    history = committed ?? (await store.loadHistory(sessionId));
  }
  const state = record.state;
  if (state && persistHistory && !history.some((message) => message.id === state.firstKeptMessageId)) {
    // The stored state does not belong to the stored history: keep the history, drop the state.
    record = { ...record, state: undefined };
  }
  conversation.apply({ replace: history, record });
  return committed;
}

/**
 * Replaces memory with what the store holds: the record first (`loaded`, when
 * the caller read it already), then the whole history. A state whose kept
 * message is not in that history is dropped.
 */
export async function reloadConversation(options: SessionPersistenceOptions, loaded?: SessionRecord): Promise<void> {
  const { store, sessionId, conversation } = options;
  let record = loaded ?? (await loadStoredRecord(options, () => {}));
  const history = await store.loadHistory(sessionId);
  const state = record.state;
  if (state && !history.some((message) => message.id === state.firstKeptMessageId)) {
    record = { ...record, state: undefined };
  }
  conversation.apply({ replace: history, record });
}

/**
 * Brings memory up to what the store holds now, after another process wrote:
 * the record first, then the messages appended after the ones memory has (so
 * the record's kept message is among them). A history whose kept message is
 * neither in memory nor among the newer messages (another process cleared the
 * conversation or switched its branch) is reloaded whole.
 */
export async function catchUpWithStore(
  options: SessionPersistenceOptions,
  onBadRecord: (error: unknown) => void = () => {},
): Promise<void> {
  const { store, sessionId, persistHistory, conversation } = options;
  const record = await loadStoredRecord(options, onBadRecord);
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
    await reloadConversation(options, record);
    return;
  }
  conversation.apply(whole ? { replace: newer, record } : { append: newer, record });
}
