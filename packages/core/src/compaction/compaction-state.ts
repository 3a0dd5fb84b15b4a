import type { FileOperations } from '../summarize/types.js';

/** How a compaction produced its summary. Custom summarizers report their own name. */
export type CompactionStrategy = 'llm' | 'structured' | 'truncate' | 'prune' | (string & {});

/** The current schema of {@link CompactionState}. */
export const COMPACTION_STATE_SCHEMA = 1;

/**
 * Everything that makes the model context reproducible after a restart:
 * `buildContext(history, state)` needs nothing else. Serializable as JSON.
 */
export type CompactionState = {
  /** Schema of this object; states from a newer schema are refused on load. */
  schema: typeof COMPACTION_STATE_SCHEMA;
  /** Increments with every compaction of the session (1 for the first). */
  version: number;
  /** The summary text that stands for every message before `firstKeptMessageId`. Empty for `prune`. */
  summary: string;
  /** The first message of the display history that the model still sees verbatim. */
  firstKeptMessageId: string;
  /** The span of the display history the summary covers (always from index 0). */
  summarizedRange: { fromIndex: number; toIndex: number; messageCount: number };
  /** Tool calls (by `toolCallId`) whose outputs are replaced by a marker in the context. */
  prunedToolCallIds: string[];
  /** File operations merged across every compaction. */
  fileOps: FileOperations;
  /** Context tokens just before and just after this compaction. */
  tokensBefore: number;
  tokensAfter: number;
  strategy: CompactionStrategy;
  /** ISO 8601 time of the compaction. */
  createdAt: string;
};
