import { shouldCompact } from '../compaction/should-compact.js';
import { type ResolvedSettings, triggerTokens } from '../settings/compaction-settings.js';

/** Consecutive failed automatic compactions after which the failure breaker opens. */
export const FAILURE_BREAKER_THRESHOLD = 3;

/**
 * What the auto-compaction policy remembers between calls (in memory: a
 * session kept by an adapter's conversation cache keeps it across calls).
 */
export type PolicyState = {
  /** The last usage report was over the window: compact (forced) whatever the estimate says. */
  overflowSuspected: boolean;
  /** Automatic compactions in a row that did not bring the context under the trigger. */
  failures: number;
  /** Set while the failure breaker is open: the context size when it opened. */
  pausedAtTokens?: number;
};

/** A fresh policy state (nothing suspected, no failures, breaker closed). */
export function initialPolicyState(): PolicyState {
  return { overflowSuspected: false, failures: 0 };
}

/** What the policy needs to know about the conversation now. */
export type PolicyInput = {
  /** The estimate of the context, in the provider's tokens. */
  tokens: number;
  historyLength: number;
  /** The record's loop-guard mark (`stuckAtHistoryLength`). */
  stuckAtHistoryLength: number | undefined;
};

/**
 * The growth (in context tokens) after which an open failure breaker closes: a
 * kept range's worth of new conversation, i.e. enough new text for a compaction
 * to have something to summarize that it did not have before.
 */
export function breakerResumeTokens(settings: ResolvedSettings): number {
  return settings.keepRecentTokens;
}

/** Whether the breaker is open for a context of `tokens`. */
export function isPaused(policy: PolicyState, tokens: number, settings: ResolvedSettings): boolean {
  return policy.pausedAtTokens !== undefined && tokens < policy.pausedAtTokens + breakerResumeTokens(settings);
}

/** The decision to compact automatically before a model call (`shouldCompact` with the session's guards). */
export function shouldAutoCompact(input: PolicyInput, policy: PolicyState, settings: ResolvedSettings): boolean {
  return shouldCompact(input.tokens, settings, input.historyLength, {
    stuck: input.stuckAtHistoryLength === input.historyLength,
    overflow: policy.overflowSuspected,
    paused: isPaused(policy, input.tokens, settings),
  });
}

/** Whether a compaction brought the context under the trigger and by at least `minReduction`. */
export function compactionHelped(before: number, after: number, settings: ResolvedSettings): boolean {
  return after <= triggerTokens(settings) && after <= before * (1 - settings.minReduction);
}

/** The kept budget of the escalated (second, forced) attempt: half of the smaller of `keepRecentTokens` and a fifth of the window. */
export function escalatedKeepRecentTokens(settings: ResolvedSettings): number {
  return Math.floor(Math.min(settings.keepRecentTokens, settings.contextWindow / 5) / 2);
}

/** The kept budget of overflow recovery: a fifth of the window. */
export function overflowKeepRecentTokens(settings: ResolvedSettings): number {
  return Math.floor(settings.contextWindow / 5);
}

/**
 * The policy state after an automatic compaction: a success resets the failure
 * count (and closes the breaker); from the `FAILURE_BREAKER_THRESHOLD`-th failure
 * in a row on, each failure (re)opens the breaker at `tokens`: auto-compaction
 * then waits for `breakerResumeTokens` of growth. `opened` says whether it did.
 */
export function afterAutoCompaction(
  policy: PolicyState,
  outcome: { helped: boolean; tokens: number },
): { policy: PolicyState; opened: boolean } {
  if (outcome.helped) return { policy: initialPolicyState(), opened: false };
  const failures = policy.failures + 1;
  if (failures >= FAILURE_BREAKER_THRESHOLD) {
    return { policy: { overflowSuspected: false, failures, pausedAtTokens: outcome.tokens }, opened: true };
  }
  return { policy: { overflowSuspected: false, failures }, opened: false };
}
