import { parseMessages } from '../messages/parse-messages.js';
import type { Message } from '../messages/types.js';
import type { SessionRecord } from '../store/session-store.js';

/** How to bring a history in line with the framework's full list of messages. */
export type SyncPlan =
  | { kind: 'append'; messages: Message[] }
  | { kind: 'branch'; history: Message[]; record: SessionRecord };

/**
 * Compares the held `history` with the framework's full list `messages`: when
 * the history is a prefix, the rest is appended; otherwise (an edited or removed
 * message) the conversation starts a new branch: the whole list becomes the
 * history, the compaction state is kept only if its kept range starts within
 * the common prefix, and usage and the loop guard are dropped.
 *
 * @throws {InvalidMessageError} when a branch's messages are invalid (nothing changes).
 */
export function planSync(history: readonly Message[], messages: readonly Message[], record: SessionRecord): SyncPlan {
  let common = 0;
  const shorter = Math.min(history.length, messages.length);
  // The very same message objects first (adapters hand back what they converted before): a
  // pointer comparison that does not read each of thousands of messages.
  while (common < shorter && (history[common] === messages[common] || history[common]!.id === messages[common]!.id))
    common += 1;
  if (common === history.length) return { kind: 'append', messages: messages.slice(common) };
  const branch = parseMessages(messages);
  const state = record.state;
  const keptAt = state ? branch.findIndex((message) => message.id === state.firstKeptMessageId) : -1;
  return {
    kind: 'branch',
    history: [...messages],
    record: {
      ...record,
      state: keptAt >= 0 && keptAt <= common ? state : undefined,
      usage: undefined,
      stuckAtHistoryLength: undefined,
    },
  };
}
