import { type ResolvedSettings, triggerTokens } from '../settings/compaction-settings.js';

/** What overrides the token threshold in {@link shouldCompact}. */
export type CompactionGuards = {
  /**
   * The provider reported (or the usage showed) a context over the window: compact
   * whatever the estimate says.
   * @default false
   */
  overflow?: boolean;
  /**
   * The loop guard: compaction could not help at this very history, so it is not
   * tried again until the history changes. Wins over `overflow`.
   * @default false
   */
  stuck?: boolean;
  /**
   * The failure breaker is open (several compactions in a row failed and the
   * history has not grown enough since). `overflow` still wins over it.
   * @default false
   */
  paused?: boolean;
};

/**
 * The trigger policy: compact when the context is over the trigger (a fraction
 * of the window or an absolute limit, and never leaving less than
 * `reserveTokens` free) and the whole history holds at least `minMessages`
 * messages (see docs/decisions.md: it counts the whole history, not the
 * messages since the last compaction). `trigger: 0` turns automatic compaction
 * off. `guards` carry the session's loop guard, failure breaker and overflow state.
 */
export function shouldCompact(
  contextTokens: number,
  settings: ResolvedSettings,
  historyMessages: number = Number.POSITIVE_INFINITY,
  guards: CompactionGuards = {},
): boolean {
  if (guards.stuck) return false;
  if (guards.overflow) return true;
  if (guards.paused) return false;
  return contextTokens > triggerTokens(settings) && historyMessages >= settings.minMessages;
}
