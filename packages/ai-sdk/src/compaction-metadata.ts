import type { CompactionEndEvent, CompactionEvent, CompactionTrigger } from '@compaction/core';
import { formatCompactionNotice } from './format-compaction-notice.js';

/**
 * `providerMetadata.compaction` of a model call that compacted (JSON): on
 * `generateText`'s `result.providerMetadata` / `steps[i].providerMetadata`,
 * and on the `finish` part of a stream.
 */
export type CompactionMetadata = {
  /** The conversation's key in the store. */
  sessionId: string;
  /** `auto` (over the trigger) or `overflow` (the provider rejected the prompt; the call was retried). */
  trigger: CompactionTrigger;
  /** `llm`, `structured`, `truncate`, `prune` or a custom summarizer's name. */
  strategy: string;
  messagesBefore: number;
  messagesAfter: number;
  messagesSummarized: number;
  tokensBefore: number;
  tokensAfter: number;
  durationMs: number;
  /** The compaction's number in this conversation (1 for the first). */
  version: number;
  /** Summarizers that failed before `strategy` succeeded. */
  fallbacks: { strategy: string; error: string }[];
  /** `formatCompactionNotice` of this compaction, ready for the UI. */
  notice: string;
};

/** The metadata of the last compaction among `events`, or `undefined` when none ended. */
export function compactionMetadata(events: readonly CompactionEvent[]): CompactionMetadata | undefined {
  const end = events.findLast((event): event is CompactionEndEvent => event.type === 'compaction:end');
  if (!end) return undefined;
  return {
    sessionId: end.sessionId,
    trigger: end.trigger,
    strategy: end.strategy,
    messagesBefore: end.messagesBefore,
    messagesAfter: end.messagesAfter,
    messagesSummarized: end.messagesSummarized,
    tokensBefore: end.tokensBefore,
    tokensAfter: end.tokensAfter,
    durationMs: end.durationMs,
    version: end.result.state.version,
    fallbacks: end.fallbacks.map(({ strategy, error }) => ({ strategy, error })),
    notice: formatCompactionNotice(end),
  };
}
