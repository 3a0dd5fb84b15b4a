import type { Message } from '../messages/types.js';
import { getContextWindow } from '../models/index.js';
import { type CompactionSettings, type ResolvedSettings, resolveSettings } from '../settings/compaction-settings.js';
import type { FileToolMap } from '../summarize/index.js';
import type { Summarizer } from '../summarize/types.js';
import { gptTokenizerCounter } from '../tokens/index.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { checkCompactFunctionOptions } from './check-compact-function-options.js';
import { compactWith } from './compact-with.js';
import type { CompactionResult } from './compaction-result.js';
import type { CompactionState } from './compaction-state.js';

export { contextTokens } from './context-tokens.js';

/**
 * Options of {@link compact}: what one compaction needs from its caller. The
 * session's own knobs (its token cache and calibration, a precomputed plan, a
 * forced cut, the trigger, the clock) are not here: a session passes them to
 * `compactWith` (`@compaction/core/internal`).
 */
export type CompactOptions = {
  /** The state of the previous compaction; its summary is updated, not redone. @default undefined (a first compaction) */
  previous?: CompactionState | undefined;
  /**
   * Makes the summary. Whatever it is, the chain falls back to the structured
   * and then the truncate summarizer when it throws.
   * @default structuredSummarizer()
   */
  summarizer?: Summarizer | undefined;
  /** The settings (`keepRecentTokens`, `contextWindow`, …); missing ones take their defaults. @default DEFAULT_COMPACTION_SETTINGS */
  settings?: Partial<CompactionSettings> | ResolvedSettings | undefined;
  /** Model id, for the context window when `settings.contextWindow` is not set. @default undefined (the default window) */
  model?: string | undefined;
  /** Counts tokens. @default gptTokenizerCounter('o200k_base') */
  counter?: TokenCounter | undefined;
  /** Focus for the summary, e.g. "focus on the parser bug". @default undefined (none) */
  instructions?: string | undefined;
  /** Aborts the summarizer calls; `compact` then rejects with the signal's reason. @default undefined */
  signal?: AbortSignal | undefined;
  /** Which tools read or modify files, on top of the default map. @default undefined (the default map) */
  fileToolMap?: FileToolMap | undefined;
};

/**
 * Compacts `messages` (the display history, which is not modified): plans the
 * cut, clears old tool outputs when that alone is enough (strategy `prune`),
 * else summarizes the old span (updating `previous`'s summary, through the
 * fallback chain) and builds the next state. Pure: the result's `state` is what
 * to store; `buildContext(messages, state)` is what the model sees. Returns
 * undefined when there is nothing to compact. Bad options are an
 * `InvalidSettingsError` at once.
 *
 * @example
 * const result = await compact(history, { previous: stored, settings: { contextWindow: 200_000 } });
 * if (result) stored = result.state;
 */
export async function compact(
  messages: readonly Message[],
  options: CompactOptions = {},
): Promise<CompactionResult | undefined> {
  checkCompactFunctionOptions(options);
  // An explicit `settings.contextWindow` wins over the model's; `resolveSettings` applies that.
  const settings = resolveSettings(options.settings, getContextWindow(options.model));
  return compactWith(messages, {
    previous: options.previous,
    summarizer: options.summarizer,
    settings,
    counting: { counter: options.counter ?? gptTokenizerCounter() },
    instructions: options.instructions,
    signal: options.signal,
    fileToolMap: options.fileToolMap,
  });
}
