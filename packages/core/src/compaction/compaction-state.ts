import type { FileOperations, PreviousSummary, SummaryPart } from '../summarize/types.js';

/** How a compaction produced its summary. Custom summarizers report their own name. */
export type CompactionStrategy = 'llm' | 'structured' | 'truncate' | 'prune' | (string & {});

/**
 * The current schema of {@link CompactionState}. Schema 2 keeps the summary's parts and last
 * request as fields (`summaryParts`, `lastRequest`); a schema-1 state, which has only the text,
 * still loads: its text is an opaque earlier summary (see {@link previousSummaryOf}).
 */
export const COMPACTION_STATE_SCHEMA = 2;

/** Every schema this version reads: 1 (the summary as text only) and the current one. */
export type CompactionStateSchema = 1 | typeof COMPACTION_STATE_SCHEMA;

/**
 * Everything that makes the model context reproducible after a restart:
 * `buildContext(history, state)` needs nothing else. Serializable as JSON.
 */
export type CompactionState = {
  /** Schema of this object; states from a newer schema are refused on load. */
  schema: CompactionStateSchema;
  /** Increments with every compaction of the session (1 for the first). */
  version: number;
  /**
   * The summary text that stands for every message before `firstKeptMessageId`, rendered once
   * from `summaryParts`, `fileOps` and `lastRequest` (`renderSummary`) when the compaction
   * made it; nothing reads it back. Empty when nothing was summarized yet (`prune`).
   */
  summary: string;
  /**
   * The summary as its summarizers made it: the `history` part (sections, the facts the
   * structured summarizer carries, or a model's text) and a split turn's `turn-prefix` part.
   * The next compaction builds on these. Absent in a schema-1 state.
   */
  summaryParts?: SummaryPart[];
  /** The user's last request, carried verbatim (cut when a huge paste) after the summary. */
  lastRequest?: string;
  /** The first message of the display history that the model still sees verbatim. */
  firstKeptMessageId: string;
  /** The span of the display history the summary covers (always from index 0). */
  summarizedRange: { fromIndex: number; toIndex: number; messageCount: number };
  /** Tool calls (by `toolCallId`) whose outputs are replaced by a marker in the context. */
  prunedToolCallIds: string[];
  /** File operations merged across every compaction: the one place they are kept; the summary's file blocks are rendered from it. */
  fileOps: FileOperations;
  /** Context tokens just before and just after this compaction. */
  tokensBefore: number;
  tokensAfter: number;
  strategy: CompactionStrategy;
  /** ISO 8601 time of the compaction. */
  createdAt: string;
};

/**
 * The earlier summary a compaction builds on, as the state holds it: its parts and carried last
 * request. A state without parts (schema 1, or one built by hand) gives its text as one opaque
 * `verbatim` part, never parsed here. Undefined when there is no summary yet.
 *
 * @example
 * ```ts
 * const previous = previousSummaryOf(state); // { parts: [...], lastRequest: 'fix the test' }
 * ```
 */
export function previousSummaryOf(state: CompactionState | undefined): PreviousSummary | undefined {
  if (!state) return undefined;
  if (state.summaryParts && state.summaryParts.length > 0) {
    return {
      parts: state.summaryParts,
      ...(state.lastRequest !== undefined ? { lastRequest: state.lastRequest } : {}),
    };
  }
  if (!state.summary.trim()) return undefined;
  return { parts: [{ kind: 'history', strategy: state.strategy, text: state.summary, verbatim: true }] };
}

/** The summary fields a state carries unchanged into the next one (a prune-only compaction makes no summary). */
export function carriedSummary(
  state: CompactionState | undefined,
): Pick<CompactionState, 'summary' | 'summaryParts' | 'lastRequest'> {
  if (!state) return { summary: '' };
  return {
    summary: state.summary,
    ...(state.summaryParts ? { summaryParts: state.summaryParts } : {}),
    ...(state.lastRequest !== undefined ? { lastRequest: state.lastRequest } : {}),
  };
}
