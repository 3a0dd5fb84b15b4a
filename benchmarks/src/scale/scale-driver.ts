import type { Message, SessionRecord } from '@compaction/core';

/**
 * One adapter serving many conversations in one process, each call the way a
 * chat server makes it: the conversation's history as the framework holds it
 * plus one new ~250-token message, through the adapter's real hooks, then the
 * provider's reported usage recorded.
 */
export type ScaleDriver = {
  /**
   * Builds every conversation's history as the framework holds it (not timed,
   * not in the heap figure) and the record its earlier calls left in the store.
   */
  setup(conversations: number, messages: number): Promise<void>;
  /** One call of `conversation`; resolves to the milliseconds spent in the adapter's hooks. */
  call(conversation: number): Promise<number>;
};

/** Settings under which no conversation here reaches the trigger. */
export const NO_COMPACTION = { contextWindow: 50_000_000 } as const;

/** The input tokens a provider would report for `tokens` counted ones (a fixed system prompt besides). */
export const reported = (tokens: number) => tokens + 1_200;

/**
 * The record a conversation's earlier calls left: the provider's usage for the
 * whole history and our count of it. `countedTokens` is the history's count
 * (`countMessageTokens` with the default counter), computed once per
 * benchmark on conversation 0 — every conversation costs the same but for a
 * short tag — so setting up 10,000 conversations does not count 2 million messages.
 */
export function earlierCalls(history: readonly Message[], countedTokens: number, lastMessageId: string): SessionRecord {
  return {
    usage: {
      inputTokens: reported(countedTokens),
      contextMessageCount: history.length,
      historyLength: history.length,
      stateVersion: 0,
      countedTokens,
      lastMessageId,
    },
  };
}
