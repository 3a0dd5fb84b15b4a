import type { CompactionStrategy, CompactionTrigger } from '@compaction/core';
import type { AdapterName } from './adapter-name.js';

/** One model call of a replay, recorded beside ours. */
export type ReplayCall = {
  /** 1-based. */
  call: number;
  /** The recorded assistant message that answered it. */
  messageId: string;
  /** Context tokens the recording says were sent, when it says. */
  recorded?: number;
  /** Context tokens we sent: the prompt the replay model received, counted, plus the overhead. */
  ours: number;
  /** Context tokens of the full history at this call (no compaction), counted the same way. */
  uncompacted: number;
  /** Of `ours`, the tokens a prefix cache would read (unchanged prefix of the previous call's prompt). */
  cacheRead: number;
  /** Of `ours`, the tokens written to the cache (the rest). */
  cacheWrite: number;
  outputTokens: number;
  /** Whether the engine compacted just before this call. */
  compactedBefore: boolean;
};

/** One compaction the engine made during a replay. */
export type ReplayCompaction = {
  /** The call it ran before (1-based). */
  beforeCall: number;
  trigger: CompactionTrigger;
  messagesSummarized: number;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  strategy: CompactionStrategy;
  /** Strategies that failed before `strategy` worked. */
  fallbacks: { strategy: string; error: string }[];
  /** Old tool outputs cleared (replaced by a marker) in the context, all compactions so far. */
  toolOutputsPruned: number;
  /** The summary text now standing for the compacted messages (empty for `prune`). */
  summary: string;
};

/** Everything a replay through one adapter produced. */
export type ReplayRun = {
  adapter: AdapterName;
  calls: ReplayCall[];
  compactions: ReplayCompaction[];
  /** Compactions that were attempted and reported an error (the engine went on uncompacted). */
  compactionErrors: { beforeCall: number; message: string }[];
  /** Tokens of every summary made, as a model call would bill them. */
  summarizations: { inputTokens: number; outputTokens: number }[];
  /** Tokens added to every call for what the messages do not hold (system prompt, tools). */
  overheadTokens: number;
  /** Recorded-model tokens per counted token, applied to every figure of ours. */
  tokenRatio: number;
};
