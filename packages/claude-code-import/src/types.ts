import type { Message } from '@compaction/core';

/** A line of an imported file that was skipped or only partly imported, and why. */
export type ImportWarning = {
  /** 1-based line number in the input text. */
  line: number;
  problem: string;
};

/** Token figures one model call reported, as Claude Code recorded them. */
export type RecordedUsage = {
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
};

/** One model call of a recorded session: the merged assistant reply it produced. */
export type RecordedCall = {
  /** Our id of the assistant message (Claude's `message.id`). */
  messageId: string;
  /** Index of that assistant message in `ImportedSession.messages`. */
  index: number;
  usage: RecordedUsage;
  /** Size of the context sent: input + cache creation + cache read tokens. */
  contextTokens: number;
  model?: string;
  /** When the reply started streaming (its first record). */
  timestamp?: string;
};

/** One of Claude Code's own compactions (a `compact_boundary` system record). */
export type RecordedCompaction = {
  /** 1-based line of the `compact_boundary` record. */
  boundaryLine: number;
  /** Index in `messages` of the first message after the boundary: the summary message. */
  messageIndex: number;
  /** Context size Claude Code measured before compacting (`compactMetadata.preTokens`). */
  preTokens?: number;
  /** `compactMetadata.trigger`: `auto` or `manual`. */
  trigger?: string;
  /** Text of the `isCompactSummary` user record that replaced the history. Empty if none followed. */
  summary: string;
  /** How many messages came before the boundary. */
  summarizedMessageCount: number;
};

/** A recorded session converted to core messages, with what the recording says about its calls. */
export type ImportedSession = {
  /** `options.sessionName`, else the recording's own session id, when it has one. */
  name?: string;
  /** Core messages in conversation order. */
  messages: Message[];
  /** One per model call, in order. */
  calls: RecordedCall[];
  compactions: RecordedCompaction[];
  /** Malformed or skipped lines; empty for a clean file. */
  warnings: ImportWarning[];
};

/** Options of `parseClaudeCodeSession`. */
export type ClaudeCodeImportOptions = {
  /**
   * Name given to the imported session.
   * @default the `sessionId` of the first record that has one
   */
  sessionName?: string;
  /**
   * Import `isSidechain: true` records (a sub-agent's own conversation) instead of skipping them.
   * They are marked `metadata.claudeCode.isSidechain: true`.
   * @default false
   */
  includeSidechain?: boolean;
};
