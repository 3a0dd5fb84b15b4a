import type { Message } from '../messages/types.js';
import type { SessionRecord } from '../store/session-store.js';

/**
 * One change to a conversation. The session applies it to memory only after the
 * store accepted it (`session-persistence` and its parts), so memory never holds what a restart
 * would not find.
 */
export type ConversationChange = {
  /** Messages added at the end of the history. */
  append?: readonly Message[];
  /** A whole new history (load, branch switch, clear): starts a new epoch. */
  replace?: readonly Message[];
  /** The new record (replaces the old one whole). */
  record?: SessionRecord;
};

/** The mutable state of one conversation, with one way to change it: {@link ConversationState.apply}. */
export type ConversationState = {
  /** The display history, oldest first. Read-only: change it with `apply`. */
  readonly history: readonly Message[];
  /** Message id → index in `history`. */
  readonly ids: ReadonlyMap<string, number>;
  /** What the store holds besides the history (compaction state, usage, calibration). */
  readonly record: SessionRecord;
  /**
   * Increments every time the history is replaced rather than appended to (load,
   * branch switch, clear): whatever was computed in an older epoch is stale.
   */
  readonly epoch: number;
  /** The compaction version of the record's state (0 without one). */
  version(): number;
  /** Id of the message at `length - 1`, or undefined for an empty prefix. */
  lastMessageId(length?: number): string | undefined;
  /** Applies a change the store already accepted. */
  apply(change: ConversationChange): void;
};

/** An empty conversation (epoch 0); the session loads the stored one into it with `apply({ replace, record })`. */
export function createConversationState(): ConversationState {
  let history: Message[] = [];
  const ids = new Map<string, number>();
  let record: SessionRecord = {};
  let epoch = 0;
  return {
    get history() {
      return history;
    },
    get ids() {
      return ids;
    },
    get record() {
      return record;
    },
    get epoch() {
      return epoch;
    },
    version: () => record.state?.version ?? 0,
    lastMessageId: (length = history.length) => (length > 0 ? history[length - 1]?.id : undefined),
    apply(change) {
      if (change.replace) {
        // An indexed loop: `entries()` made an iterator and a pair per message (a restart
        // over 10,000 messages noticed it).
        const replace = change.replace;
        history = replace.slice();
        ids.clear();
        for (let index = 0; index < replace.length; index += 1) ids.set((replace[index] as Message).id, index);
        epoch += 1;
      }
      if (change.append) {
        for (const message of change.append) {
          ids.set(message.id, history.length);
          history.push(message);
        }
      }
      if (change.record) record = change.record;
    },
  };
}
