import type { ReplayFigures } from '../engine/replay-figures.js';
import { formatTokens } from './format-tokens.js';

/**
 * One compaction as a line: `Conversation compacted: 41 messages → summary, 52,120 → 21,930
 * tokens (structured, auto; next call sent 23,104)`. A prune-only compaction says how many
 * old tool outputs it cleared instead.
 */
export function formatCompaction(compaction: ReplayFigures['compactions'][number]): string {
  const what =
    compaction.strategy === 'prune'
      ? `${compaction.toolOutputsPruned} old tool outputs cleared`
      : `${compaction.messagesSummarized} messages → summary`;
  const next = compaction.nextCallTokens === null ? '' : `; next call sent ${formatTokens(compaction.nextCallTokens)}`;
  return `Conversation compacted: ${what}, ${formatTokens(compaction.tokensBefore)} → ${formatTokens(compaction.tokensAfter)} tokens (${compaction.strategy}, ${compaction.trigger}${next})`;
}
