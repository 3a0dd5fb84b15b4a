import type { CompactionState, CompactionStrategy } from './compaction-state.js';

/** Why a compaction ran. */
export type CompactionTrigger = 'auto' | 'manual' | 'overflow';

/** The outcome of one compaction. */
export type CompactionResult = {
  state: CompactionState;
  tokensBefore: number;
  tokensAfter: number;
  /** Messages newly summarized by this compaction. */
  messagesSummarized: number;
  strategy: CompactionStrategy;
  trigger: CompactionTrigger;
  /** Whether the cut fell inside a turn (two summaries were made). */
  isSplitTurn: boolean;
  /** Summarizers that failed before `strategy` succeeded, with their errors. */
  fallbacks: { strategy: string; error: string }[];
};
