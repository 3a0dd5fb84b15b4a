import type { CompactionStrategy, CompactionTrigger } from '@compaction/core';
import type { AdapterName } from './adapter-name.js';
import type { TokenScale } from './fit-token-scale.js';

/** Totals of one side of a replay (recorded or ours). */
export type ReplayTotals = {
  calls: number;
  /**
   * Every input token billed, cached or not: the context of every model call plus the
   * input of every summarization call (`callInputTokens + summarizationInputTokens`).
   * The one input figure the demo, the report, the benchmarks and the README compare.
   */
  inputTokens: number;
  /** Of `inputTokens`, the context tokens of the model calls alone. */
  callInputTokens: number;
  maxContextTokens: number;
  outputTokens: number;
  /** Calls made to summarize (Claude Code's compaction agent; ours, as an LLM would bill them). */
  summarizationCalls: number;
  summarizationInputTokens: number;
  summarizationOutputTokens: number;
  /**
   * Cache-aware cost units (input ×1, cache write ×1.25, cache read ×0.1, output ×5),
   * summarization calls included. Ours bills the first call as the recording billed it
   * (when it has usage): it is the same prompt on both sides, and the recording read most
   * of it from a cache earlier sessions wrote, which a replay cannot know about.
   */
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
  /** Every `compaction:error` event, in order (the engine went on uncompacted). */
  compactionErrors: { beforeCall: number; message: string }[];
  /** Calls whose context (ours) was above the trigger, in order. */
  overTriggerCalls: { call: number; tokens: number }[];
  /** What a reader needs to compare the figures (e.g. a manual compaction only core could replay). */
  notes: string[];
  recordedCompactions: {
    beforeCall: number | null;
    preTokens: number | null;
    trigger: string | null;
    summary: string;
  }[];
  totals: { recorded: ReplayTotals | null; ours: ReplayTotals };
  warnings: { line: number; problem: string }[];
};
