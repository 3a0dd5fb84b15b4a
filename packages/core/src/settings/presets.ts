import {
  COMPACT_STRUCTURED_BUDGET,
  DEFAULT_STRUCTURED_BUDGET,
} from '../summarize/structured/build-structured-summary.js';
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
 * Spends fewer tokens: every call re-sends the whole context, so a context kept small is
 * cheaper on every call, even after paying for more compactions. Compacts at a quarter of
 * the window, keeps 5,000 recent tokens verbatim (counted with the session's counter;
 * about 6–8K of Claude's tokens), clears old tool outputs, and writes summaries of up to
 * 2,000 tokens (`COMPACT_STRUCTURED_BUDGET`). A larger kept range or larger summaries cost
 * more than they save here: each compaction rewrites the prompt cache from the summary on,
 * a context that starts closer to the trigger reaches it again sooner, and with a low
 * trigger compactions come often.
 *
 * On the two long recorded Claude Code sessions of the benchmarks it sends 44–59% fewer
 * input tokens than Claude Code did, for 24–42% fewer cache-aware cost units (see
 * docs/benchmarks.md). Use a larger `keepRecentTokens` when the agent needs long tool
 * outputs from several calls back verbatim. The absolute `keepRecentTokens` must stay
 * under `contextWindow − reserveTokens`, so for windows under ~24K set your own.
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
  description: 'Compact at a quarter of the window, keep 5K recent tokens, clear old tool outputs, 2K-token summaries.',
  settings: Object.freeze({
    /** @default 0.25 */
    trigger: 0.25,
    /** @default 5000 */
    keepRecentTokens: 5000,
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
