import type { CompactionStrategy, CompactionTrigger } from '@compaction/core';
import type { AdapterName } from './adapter-name.js';
import type { TokenScale } from './fit-token-scale.js';

/** Totals of one side of a replay (recorded or ours). */
export type ReplayTotals = {
  calls: number;
  /** Sum of the context tokens of every call: every input token billed, cached or not. */
  inputTokens: number;
  maxContextTokens: number;
  outputTokens: number;
  /** Calls made to summarize (Claude Code's compaction agent; ours, as an LLM would bill them). */
  summarizationCalls: number;
  summarizationInputTokens: number;
  summarizationOutputTokens: number;
  /** Cache-aware cost units: input ×1, cache write ×1.25, cache read ×0.1, output ×5. */
  costUnits: number;
};

/** The figures of one replay: what `replay --json` prints and what the table and the report show. */
export type ReplayFigures = {
  file: string;
  format: string;
  name?: string;
  model?: string;
  adapter: AdapterName;
  settings: { contextWindow: number; triggerTokens: number; keepRecentTokens: number; reserveTokens: number };
  scale: TokenScale;
  calls: {
    call: number;
    turn: number;
    recorded: number | null;
    ours: number;
    uncompacted: number;
    cacheRead: number;
    cacheWrite: number;
    output: number;
    compactedBefore: boolean;
  }[];
  compactions: {
    beforeCall: number;
    trigger: CompactionTrigger;
    strategy: CompactionStrategy;
    messagesSummarized: number;
    toolOutputsPruned: number;
    tokensBefore: number;
    tokensAfter: number;
    /** Context tokens of the call right after it, as the model received them. */
    nextCallTokens: number | null;
    summary: string;
  }[];
  compactionErrors: { beforeCall: number; message: string }[];
  recordedCompactions: {
    beforeCall: number | null;
    preTokens: number | null;
    trigger: string | null;
    summary: string;
  }[];
  totals: { recorded: ReplayTotals | null; ours: ReplayTotals };
  warnings: { line: number; problem: string }[];
};
