import type { CompactionEndEvent } from '@compaction/core';

/** What {@link formatCompactionNotice} reads: a `compaction:end` event or the `compaction` provider metadata. */
export type CompactionNoticeInput = Pick<
  CompactionEndEvent,
  'messagesSummarized' | 'tokensBefore' | 'tokensAfter' | 'strategy'
> & {
  /** Every message the summary now stands for (a `compaction:end` event carries it in `result`). */
  result?: { state: { summarizedRange: { messageCount: number } } } | undefined;
};

/**
 * One line for a chat UI:
 * `Conversation compacted: 84 messages → summary, 162K → 31K tokens`
 * (`old tool outputs cleared` instead of the summary when only pruning ran). When the
 * summary already stood for earlier messages it says how many it covers now, the figure
 * a compaction marker shows: `3 more messages → summary (13 in all)`.
 */
export function formatCompactionNotice(event: CompactionNoticeInput): string {
  const inAll = event.result?.state.summarizedRange.messageCount;
  const stacked = inAll !== undefined && inAll > event.messagesSummarized;
  const what =
    event.strategy === 'prune'
      ? 'old tool outputs cleared'
      : stacked
        ? `${event.messagesSummarized} more ${event.messagesSummarized === 1 ? 'message' : 'messages'} → summary (${inAll} in all)`
        : `${event.messagesSummarized} messages → summary`;
  return `Conversation compacted: ${what}, ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens`;
}

function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  const thousands = Math.round(tokens / 1000);
  if (thousands < 1000) return `${thousands}K`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}
