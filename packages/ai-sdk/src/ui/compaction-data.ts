import type { CompactionStrategy, CompactionTrigger } from '@compaction/core';
import type { UIMessage, UITools } from 'ai';

/**
 * Where the last compaction cut a conversation, in UI message terms: everything
 * before `firstKeptMessageId` is summarized (the model sees `summary` instead),
 * that message and everything after it reach the model verbatim. JSON.
 */
export type CompactionBoundary = {
  /** The conversation's key (your chat id). */
  sessionId: string;
  /** The compaction's number in this conversation (1 for the first). */
  version: number;
  /** `llm`, `structured`, `truncate`, `prune` or a custom summarizer's name. */
  strategy: CompactionStrategy;
  /**
   * The id of the first UI message the model still sees (the one holding the first kept model
   * message: a long assistant message cut between two tool steps counts as kept).
   * `undefined` when the cut is in no message the server was given.
   */
  firstKeptMessageId: string | undefined;
  /** Model messages the summary stands for (system messages included); see `compactionView` for UI messages. */
  messagesSummarized: number;
  /** Context tokens just before and just after the compaction. */
  tokensBefore: number;
  tokensAfter: number;
  /** The summary the model sees instead of the summarized messages (empty for `prune`). */
  summary: string;
  /** ISO 8601 time of the compaction. */
  createdAt: string;
};

/** The payload of a `data-compaction` part: one compaction that just ended. JSON. */
export type CompactionData = CompactionBoundary & {
  /** `auto` (over the trigger), `overflow` (the provider rejected the prompt) or `manual` (`/compact`). */
  trigger: CompactionTrigger;
  /** Model messages in the context before and after. */
  messagesBefore: number;
  messagesAfter: number;
  durationMs: number;
  /** Summarizers that failed before `strategy` succeeded. */
  fallbacks: { strategy: string; error: string }[];
  /** "Conversation compacted: 84 messages → summary, 162K → 31K tokens" (`formatCompactionNotice`). */
  notice: string;
};

/**
 * The payload of a `data-compaction-context` part: the figures of a context usage bar,
 * for the conversation as it stands after a response (what the next call would send). JSON.
 */
export type CompactionContextData = {
  /** The conversation's key (your chat id). */
  sessionId: string;
  /** Estimated tokens of the context the model would see now. */
  contextTokens: number;
  /** The model's context window. */
  contextWindow: number;
  /** The context size over which the next call compacts. */
  triggerTokens: number;
  /** `contextTokens` as a share of `contextWindow`, in percent (one decimal). */
  percentUsed: number;
  /** How many compactions the conversation has had. */
  compactions: number;
  /** Model messages in the full history and in the context. */
  historyMessages: number;
  contextMessages: number;
};

/**
 * The payload of a transient `data-compaction-error` part: a compaction that failed or could not
 * help. The answer goes on with the context as it was; this is for a notice. JSON.
 */
export type CompactionErrorData = {
  /** The conversation's key (your chat id). */
  sessionId: string;
  trigger: CompactionTrigger;
  /** What went wrong, in a sentence with the figures. */
  message: string;
  /** Context tokens when it was tried. */
  tokensBefore: number;
};

/**
 * The data parts this package writes into a UI message stream, for `UIMessage`'s
 * data-part type: `data-compaction`, `data-compaction-context` and (transient, never in
 * the stored messages) `data-compaction-error`.
 */
export type CompactionDataParts = {
  compaction: CompactionData;
  'compaction-context': CompactionContextData;
  'compaction-error': CompactionErrorData;
};

/**
 * A `UIMessage` that may carry compaction data parts: `useChat<CompactionUIMessage>()`
 * types `part.data` of `data-compaction` and `data-compaction-context` parts.
 * Add your own data parts with an intersection of the data-part types.
 */
export type CompactionUIMessage<METADATA = unknown, TOOLS extends UITools = UITools> = UIMessage<
  METADATA,
  CompactionDataParts,
  TOOLS
>;
