import type { Message } from '../messages/types.js';
import type { BranchJournal } from './branch-journal.js';
import { reloadConversation } from './load-conversation.js';
import type { SessionPersistenceOptions } from './session-persistence-options.js';

/**
 * Appends `messages` (validated by the caller) to the stored history, then to
 * memory. When other processes appended meanwhile (the store's new length says
 * so), memory takes their messages and ours in the store's order; when the
 * stored history shrank (cleared or switched elsewhere), it is reloaded whole.
 * Without a persisted history, memory takes them at once. The caller runs it
 * one write at a time; a committed branch switch still in `journal` is
 * finished first.
 */
export async function appendToHistory(
  options: SessionPersistenceOptions,
  journal: Pick<BranchJournal, 'settle'>,
  messages: readonly Message[],
): Promise<void> {
  const { store, sessionId, conversation } = options;
  await journal.settle();
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
  await reloadConversation(options);
}
