import { buildContext, pruneMessage, repairToolPairs } from '../compaction/build-context.js';
import type { Message } from '../messages/types.js';
import type { ConversationState } from './conversation-state.js';

/** `buildContext` over a conversation, kept incrementally (see {@link createContextCache}). */
export type ContextCache = {
  /**
   * The context the model sees now. Shared, and grown in place when messages are
   * appended: copy it before handing it out or keeping it past the current call.
   */
  current(): Message[];
  /**
   * Whether the context is the history itself, message for message (no compaction state,
   * no tool pair repaired): then a caller that holds the history can send it as it is.
   */
  isHistory(): boolean;
};

/**
 * `buildContext(history, state)`, incrementally: when the history only grew
 * since the last build (same epoch, same compaction version), that context
 * needed no repair and neither do the new messages (every tool call has its
 * result, after it), the new messages are pruned and appended to it — so a call
 * costs O(new messages), not O(history). Any replacement of the history (load, branch switch, clear)
 * starts a new epoch and a full rebuild.
 */
export function createContextCache(
  conversation: ConversationState,
  options: { historyTools?: boolean } = {},
): ContextCache {
  let cached:
    | { version: number; epoch: number; length: number; clean: boolean; asHistory: boolean; messages: Message[] }
    | undefined;
  const cache: ContextCache = {
    isHistory() {
      cache.current();
      return cached?.asHistory ?? false;
    },
    current() {
      const { history, epoch } = conversation;
      const version = conversation.version();
      const state = conversation.record.state;
      if (cached && cached.version === version && cached.epoch === epoch) {
        if (cached.length === history.length) return cached.messages;
        if (cached.clean && cached.length < history.length) {
          const pruned = new Set(state?.prunedToolCallIds ?? []);
          const tail = history
            .slice(cached.length)
            .map((message) => (pruned.size > 0 ? pruneMessage(message, pruned) : message));
          // A tail that needs no repair is appended as it is. One that does (a call still
          // unanswered, a result stored before its call) may pair with messages outside
          // it: the whole context is rebuilt, so the answer is always buildContext's.
          if (repairToolPairs(tail) === tail) {
            // In place: the cache owns this array, and every reader copies it or reads its
            // length at once, so growing it costs O(new messages), not a copy of the context.
            for (const message of tail) cached.messages.push(message);
            cached.length = history.length;
            return cached.messages;
          }
        }
      }
      const built = buildContext(history, state, options);
      // Without a state the builder may return the history array itself, which grows in place.
      const messages = built === history ? history.slice() : built;
      // The builder's output is repaired already; it can take appended messages as they
      // are unless a repair gave a call a synthetic result that a real one may follow.
      const clean = !messages.some(
        (message) => (message.metadata?.compaction as { type?: string } | undefined)?.type === 'synthetic-result',
      );
      cached = { version, epoch, length: history.length, clean, asHistory: !state && built === history, messages };
      return messages;
    },
  };
  return cache;
}
