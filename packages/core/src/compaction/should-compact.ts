import { type ResolvedSettings, triggerTokens } from '../settings/compaction-settings.js';

/**
 * The trigger policy: compact when the context is over the trigger (a fraction
 * of the window or an absolute limit, and never leaving less than
 * `reserveTokens` free), and the uncompacted part of the history has at least
 * `minMessages` messages. `trigger: 0` turns automatic compaction off.
 */
export function shouldCompact(
  contextTokens: number,
  settings: ResolvedSettings,
  uncompactedMessages: number = Number.POSITIVE_INFINITY,
): boolean {
  return contextTokens > triggerTokens(settings) && uncompactedMessages >= settings.minMessages;
}
