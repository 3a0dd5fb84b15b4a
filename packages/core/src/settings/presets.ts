import { COMPACT_STRUCTURED_BUDGET, DEFAULT_STRUCTURED_BUDGET } from '../summarize/build-structured-summary.js';
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from './compaction-settings.js';

/**
 * A named set of compaction settings and the summary size that goes with them. Pass
 * `settings` to a session and `summaryMaxTokens` to its summarizer
 * (`structuredSummarizer({ maxTokens })`, or `llmSummarizer`'s `maxOutputTokens.history`).
 */
export type CompactionPreset = {
  /** What it is for, in one line. */
  readonly description: string;
  readonly settings: Readonly<Partial<CompactionSettings>>;
  /** The token budget of each summary. */
  readonly summaryMaxTokens: number;
};

/**
 * Compacts only when the context nears the window (80%), keeps 20K recent tokens and
 * writes summaries of up to 4,000 tokens: the fewest compactions and the most verbatim
 * context.
 */
export const DEFAULT_PRESET: CompactionPreset = Object.freeze({
  description: 'Compact near the window (80%), keep 20K recent tokens, 4K-token summaries.',
  settings: Object.freeze({
    trigger: DEFAULT_COMPACTION_SETTINGS.trigger,
    keepRecentTokens: DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
    pruneToolOutputs: DEFAULT_COMPACTION_SETTINGS.pruneToolOutputs,
  }),
  summaryMaxTokens: DEFAULT_STRUCTURED_BUDGET,
});

/**
 * Spends fewer input tokens: every call re-sends the whole context, so a context kept
 * small is cheaper on every call, even after paying for more compactions. Compacts at a
 * third of the window, keeps 8K recent tokens verbatim, clears old tool outputs, and
 * writes summaries of up to 2,000 tokens (`COMPACT_STRUCTURED_BUDGET`). Larger summaries
 * cost more than they save here: each compaction rewrites the prompt cache from the
 * summary on, and with a low trigger compactions come often.
 *
 * On the recorded Claude Code sessions in the benchmarks this sends about half the input
 * tokens of the recording (see docs/benchmarks.md). Use a larger `keepRecentTokens` when
 * the agent needs long tool outputs from several calls back verbatim.
 *
 * @example
 * ```ts
 * const { settings, summaryMaxTokens } = ECONOMY_PRESET;
 * const session = createCompactionSession({
 *   sessionId,
 *   settings,
 *   summarizer: structuredSummarizer({ maxTokens: summaryMaxTokens }),
 * });
 * ```
 */
export const ECONOMY_PRESET: CompactionPreset = Object.freeze({
  description: 'Compact at a third of the window, keep 8K recent tokens, clear old tool outputs, 2K-token summaries.',
  settings: Object.freeze({
    /** @default 0.33 */
    trigger: 0.33,
    /** @default 8000 */
    keepRecentTokens: 8000,
    /** @default true */
    pruneToolOutputs: true,
  }),
  summaryMaxTokens: COMPACT_STRUCTURED_BUDGET,
});

/** The presets by name: `default` ({@link DEFAULT_PRESET}) and `economy` ({@link ECONOMY_PRESET}). */
export const COMPACTION_PRESETS: Readonly<{ default: CompactionPreset; economy: CompactionPreset }> = Object.freeze({
  default: DEFAULT_PRESET,
  economy: ECONOMY_PRESET,
});
