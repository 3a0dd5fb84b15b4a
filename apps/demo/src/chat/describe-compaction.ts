import type { CompactionEvent } from '@compaction/core';
import { formatTokens, withThousands } from '../cli/format-tokens.js';

type EndEvent = Extract<CompactionEvent, { type: 'compaction:end' }>;
type ErrorEvent = Extract<CompactionEvent, { type: 'compaction:error' }>;

/**
 * One line for what the compaction events of one step said (a prepare before a model
 * call, a `/compact`, an overflow recovery), from their figures, in one number format:
 * `Conversation compacted: 12 messages → summary, 1,530 → 1,440 tokens (structured,
 * auto)`, from the first attempt's context to the last result's, and `— still above the
 * trigger of …` only when it is (with when the next attempt comes: the next message, or
 * once the context has grown when the engine paused automatic compaction), and each
 * summarizer that failed before the one that wrote it (an unreachable endpoint). Without a compaction, `Compaction failed: <reason>` for
 * the last error. Nothing when no compaction was attempted.
 */
export function describeCompaction(events: readonly CompactionEvent[], triggerTokens: number): string[] {
  const ends = events.filter((event): event is EndEvent => event.type === 'compaction:end');
  const errors = events.filter((event): event is ErrorEvent => event.type === 'compaction:error');
  const first = ends[0];
  const last = ends.at(-1);
  if (first && last) {
    const what =
      last.strategy === 'prune'
        ? `${last.result.state.prunedToolCallIds.length} old tool outputs cleared`
        : `${last.messagesSummarized} messages → summary`;
    const paused = errors
      .map((error) => /automatic compaction is paused[^;]*/.exec(error.message)?.[0])
      .findLast((clause) => clause !== undefined);
    const still =
      last.trigger !== 'manual' && last.tokensAfter > triggerTokens
        ? ` — still above the trigger of ${formatTokens(triggerTokens)} tokens; ${paused ? withThousands(paused) : 'the next message tries again'}`
        : '';
    const fellBack = last.fallbacks
      .map((fallback) => `; ${fallback.strategy} failed (${withThousands(fallback.error.split('\n')[0]!)})`)
      .join('');
    return [
      `Conversation compacted: ${what}, ${formatTokens(first.tokensBefore)} → ${formatTokens(last.tokensAfter)} tokens (${last.strategy}, ${last.trigger})${still}${fellBack}`,
    ];
  }
  const error = errors.at(-1);
  return error ? [`Compaction failed: ${withThousands(error.message)}`] : [];
}
