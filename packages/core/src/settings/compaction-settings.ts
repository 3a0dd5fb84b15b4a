import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkSettingsInput } from './check-settings-input.js';

/** When and how much to compact. Every field has a default; see {@link DEFAULT_COMPACTION_SETTINGS}. */
export type CompactionSettings = {
  /**
   * The model's context window in tokens. When omitted, looked up from the
   * session's model id with `getContextWindow` (128K when the model is unknown).
   */
  contextWindow?: number;
  /**
   * When to compact: a number in (0, 1] is a fraction of `contextWindow`; a
   * number > 1 is an absolute token limit; `0` disables automatic compaction
   * (manual and overflow compaction still work). Whatever the trigger, a context
   * that leaves less than `reserveTokens` free is compacted too. An absolute
   * limit below `reserveTokens` or below 1% of the window (`80` meant as 80%)
   * is rejected: it would compact on every call.
   * @default 0.8
   */
  trigger: number;
  /**
   * Tokens kept free for the model's answer and the tool calls of the current turn.
   * @default 16384, at most a quarter of `contextWindow` when not set
   */
  reserveTokens: number;
  /**
   * How many recent tokens stay verbatim after a compaction.
   * @default 20000, at most a quarter of `contextWindow` when not set
   */
  keepRecentTokens: number;
  /**
   * Alternative to `keepRecentTokens`: keep the last N messages verbatim
   * (the cut still moves to keep tool calls with their results).
   * @default undefined
   */
  keepRecentMessages?: number;
  /**
   * Never compact automatically while the whole history is shorter than this many messages.
   * @default 10
   */
  minMessages: number;
  /**
   * A cut inside a turn whose summarized prefix has fewer messages than this is
   * treated as a clean cut at the turn start (no separate turn-prefix summary).
   * @default 5
   */
  splitTurnMinMessages: number;
  /**
   * Clear the outputs of old tool results (outside the kept range) before
   * summarizing; when that alone brings the context down to where a summary
   * would (see `pruneTargetTokens`), no summary is made.
   * @default true
   */
  pruneToolOutputs: boolean;
  /**
   * A compaction that shrinks the context by less than this fraction counts as
   * not helping: the engine escalates once (forced cut), then reports and stops.
   * @default 0.1
   */
  minReduction: number;
  /**
   * Tool names whose outputs are never cleared by the prune pass (`pruneToolOutputs`), e.g.
   * `['read_plan']` for a tool whose output the agent must keep seeing verbatim. Outputs in
   * messages with `metadata.pinned` are never cleared either.
   * @default []
   */
  protectedTools: readonly string[];
  /**
   * How long one summarizer call may take, in milliseconds. When it runs out, the call's
   * `AbortSignal` is aborted and compaction moves down the fallback chain (structured,
   * then truncate) without waiting for it, even if the summarizer ignores the signal.
   * Two minutes: a slow provider writing the largest LLM summary (4,096 tokens at ~40
   * tokens/s, after reading a 100K-token prompt) needs about 110 s, and an agent that waits
   * longer for its context is worse off than one that gets the instant deterministic summary.
   * @default 120000
   */
  summaryTimeoutMs: number;
  /**
   * Set it when the model has the context tools (`search_history`, `read_message`; each
   * adapter exports them): the summary's closing line then tells the model that the
   * messages it stands for can still be searched and read in full.
   * @default false
   */
  historyTools: boolean;
};

/** The settings every session starts from. */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = Object.freeze({
  contextWindow: undefined,
  trigger: 0.8,
  reserveTokens: 16_384,
  keepRecentTokens: 20_000,
  keepRecentMessages: undefined,
  minMessages: 10,
  splitTurnMinMessages: 5,
  pruneToolOutputs: true,
  minReduction: 0.1,
  protectedTools: Object.freeze([]) as readonly string[],
  summaryTimeoutMs: 120_000,
  historyTools: false,
});

/** Settings with every default applied and the window known. */
export type ResolvedSettings = CompactionSettings & { contextWindow: number };

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}

function checkInteger(name: string, value: number | undefined, { min }: { min: number }): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    fail(name, `must be a whole number ≥ ${min}, got ${String(value)}`);
  }
}

/** An absolute trigger below this share of the window cannot be meant (`80` for 80%). */
export const MIN_ABSOLUTE_TRIGGER_SHARE = 0.01;

/**
 * Applies defaults and validates: first {@link checkSettingsInput} (known keys,
 * types), then ranges against the window. Throws {@link InvalidSettingsError}
 * naming the setting and the reason.
 */
export function resolveSettings(
  settings: Partial<CompactionSettings> | undefined,
  fallbackContextWindow: number,
): ResolvedSettings {
  checkSettingsInput(settings);
  const given = stripUndefined(settings ?? {});
  const merged = { ...DEFAULT_COMPACTION_SETTINGS, ...given };
  const contextWindow = merged.contextWindow ?? fallbackContextWindow;
  // Defaults made for 100K+ windows scale down for small ones; explicit values are kept (and checked).
  const quarter = Math.floor(contextWindow / 4);
  if (given.reserveTokens === undefined) merged.reserveTokens = Math.min(merged.reserveTokens, quarter);
  if (given.keepRecentTokens === undefined) merged.keepRecentTokens = Math.min(merged.keepRecentTokens, quarter);
  checkInteger('contextWindow', contextWindow, { min: 1 });
  checkInteger('reserveTokens', merged.reserveTokens, { min: 0 });
  checkInteger('keepRecentTokens', merged.keepRecentTokens, { min: 0 });
  checkInteger('keepRecentMessages', merged.keepRecentMessages, { min: 1 });
  checkInteger('minMessages', merged.minMessages, { min: 0 });
  checkInteger('splitTurnMinMessages', merged.splitTurnMinMessages, { min: 1 });
  if (typeof merged.trigger !== 'number' || !Number.isFinite(merged.trigger) || merged.trigger < 0) {
    fail('trigger', `must be 0 (off), a fraction in (0, 1] or a token count > 1, got ${String(merged.trigger)}`);
  }
  if (merged.reserveTokens >= contextWindow) {
    fail('reserveTokens', `(${merged.reserveTokens}) must be smaller than contextWindow (${contextWindow})`);
  }
  if (merged.keepRecentTokens >= contextWindow - merged.reserveTokens) {
    fail(
      'keepRecentTokens',
      `(${merged.keepRecentTokens}) must be smaller than contextWindow − reserveTokens (${contextWindow - merged.reserveTokens}); lower it or raise contextWindow`,
    );
  }
  if (merged.trigger > 1 && merged.trigger > contextWindow) {
    fail('trigger', `absolute limit ${merged.trigger} is above contextWindow (${contextWindow})`);
  }
  checkAbsoluteTrigger(merged.trigger, merged.reserveTokens, contextWindow);
  checkInteger('summaryTimeoutMs', merged.summaryTimeoutMs, { min: 1 });
  if (!Array.isArray(merged.protectedTools) || merged.protectedTools.some((name) => typeof name !== 'string')) {
    fail('protectedTools', `must be an array of tool names (strings), got ${describeValue(merged.protectedTools)}`);
  }
  if (typeof merged.historyTools !== 'boolean') {
    fail('historyTools', `must be true or false, got ${describeValue(merged.historyTools)}`);
  }
  if (!(merged.minReduction >= 0 && merged.minReduction < 1)) {
    fail('minReduction', `must be a fraction in [0, 1), got ${String(merged.minReduction)}`);
  }
  return { ...merged, contextWindow };
}

/**
 * An absolute trigger (> 1) below the reserve or below 1% of the window compacts
 * on every call: almost always a fraction written as a percentage (`80`) or a
 * typo (`1.5`). Rejected, suggesting the fraction.
 */
function checkAbsoluteTrigger(trigger: number, reserveTokens: number, contextWindow: number): void {
  if (!(trigger > 1)) return;
  const onePercent = Math.ceil(contextWindow * MIN_ABSOLUTE_TRIGGER_SHARE);
  const floor = Math.max(reserveTokens, onePercent);
  if (trigger >= floor) return;
  const meant = trigger <= 100 ? trigger / 100 : undefined;
  const fraction = meant !== undefined && meant > 0 && meant <= 1 ? meant : 0.8;
  const below = trigger < reserveTokens ? `reserveTokens (${reserveTokens})` : `1% of contextWindow (${onePercent})`;
  fail(
    'trigger',
    `${trigger} is read as ${trigger} tokens, below ${below}, so every call would compact; for a share of the window use a fraction, e.g. trigger: ${fraction} (${Math.round(fraction * 100)}% of ${contextWindow}), or an absolute limit of at least ${floor} tokens`,
  );
}

/** The token count above which automatic compaction runs; `Infinity` when disabled. */
export function triggerTokens(settings: ResolvedSettings): number {
  if (settings.trigger === 0) return Number.POSITIVE_INFINITY;
  const limit = settings.trigger > 1 ? settings.trigger : Math.floor(settings.contextWindow * settings.trigger);
  return Math.min(limit, settings.contextWindow - settings.reserveTokens);
}

function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
