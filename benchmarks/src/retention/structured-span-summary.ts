import {
  countMessageTokens,
  extractFileOperations,
  isPinned,
  lastUserRequest,
  type Message,
  MIN_SUMMARY_TOKENS,
  SUMMARY_WINDOW_SHARE,
  structuredSummarizer,
  type TokenCounter,
} from '@compaction/core';

/**
 * The structured summary core's `compact` would write for `messages` as one history span
 * (a first compaction: no previous summary), at `maxTokens`: the same request `compact`
 * builds — unpinned messages, the span's file operations, the last user request, and the
 * size limit `compact` asks for (5% of `contextWindow`).
 */
export async function structuredSpanSummary(
  messages: readonly Message[],
  options: { maxTokens: number; counter: TokenCounter; contextWindow: number },
): Promise<string> {
  const { counter } = options;
  const request = lastUserRequest(messages);
  return structuredSummarizer({ maxTokens: options.maxTokens }).summarize({
    kind: 'history',
    messages: messages.filter((message) => !isPinned(message)),
    fileOps: extractFileOperations(messages),
    ...(request === undefined ? {} : { lastUserRequest: request }),
    replacedTokens: messages.reduce((total, message) => total + countMessageTokens(message, counter), 0),
    maxTokens: Math.max(MIN_SUMMARY_TOKENS, Math.floor(options.contextWindow * SUMMARY_WINDOW_SHARE)),
    counter,
  });
}
