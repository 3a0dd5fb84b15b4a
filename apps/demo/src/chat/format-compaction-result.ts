import type { CompactionResult } from '@compaction/core';
import { formatTokens } from '../cli/format-tokens.js';

/** `Conversation compacted: N messages → summary, X → Y tokens (strategy, trigger)`. */
export function formatCompactionResult(result: CompactionResult): string {
  const what =
    result.strategy === 'prune'
      ? `${result.state.prunedToolCallIds.length} old tool outputs cleared`
      : `${result.messagesSummarized} messages → summary`;
  return `Conversation compacted: ${what}, ${formatTokens(result.tokensBefore)} → ${formatTokens(result.tokensAfter)} tokens (${result.strategy}, ${result.trigger})`;
}
