import { describe, expect, it } from 'vitest';
import { resolveSettings, triggerTokens } from '../settings/compaction-settings.js';
import {
  afterAutoCompaction,
  breakerResumeTokens,
  compactionHelped,
  escalatedKeepRecentTokens,
  FAILURE_BREAKER_THRESHOLD,
  initialPolicyState,
  isPaused,
  overflowKeepRecentTokens,
  shouldAutoCompact,
} from './auto-compaction-policy.js';

const settings = resolveSettings(
  {
    contextWindow: 10_000,
    reserveTokens: 1_000,
    keepRecentTokens: 2_000,
    trigger: 0.5,
    minMessages: 4,
  },
  200_000,
);
const over = triggerTokens(settings) + 1;

describe('the auto-compaction policy', () => {
  it('compacts over the trigger with enough messages; the loop guard and the breaker hold it off; an overflow forces it', () => {
    const fresh = initialPolicyState();
    expect(
      shouldAutoCompact({ tokens: over, historyLength: 4, stuckAtHistoryLength: undefined }, fresh, settings),
    ).toBe(true);
    expect(
      shouldAutoCompact({ tokens: over - 1, historyLength: 4, stuckAtHistoryLength: undefined }, fresh, settings),
    ).toBe(false);
    expect(
      shouldAutoCompact({ tokens: over, historyLength: 3, stuckAtHistoryLength: undefined }, fresh, settings),
    ).toBe(false);
    expect(shouldAutoCompact({ tokens: over, historyLength: 4, stuckAtHistoryLength: 4 }, fresh, settings)).toBe(false);
    expect(shouldAutoCompact({ tokens: over, historyLength: 5, stuckAtHistoryLength: 4 }, fresh, settings)).toBe(true);
    const suspected = { ...fresh, overflowSuspected: true };
    expect(
      shouldAutoCompact({ tokens: 1, historyLength: 1, stuckAtHistoryLength: undefined }, suspected, settings),
    ).toBe(true);
    const paused = { ...fresh, failures: FAILURE_BREAKER_THRESHOLD, pausedAtTokens: over };
    expect(
      shouldAutoCompact({ tokens: over + 10, historyLength: 9, stuckAtHistoryLength: undefined }, paused, settings),
    ).toBe(false);
    expect(
      shouldAutoCompact(
        { tokens: over + breakerResumeTokens(settings), historyLength: 9, stuckAtHistoryLength: undefined },
        paused,
        settings,
      ),
    ).toBe(true);
  });

  it('the breaker opens on the threshold-th failure in a row, re-opens on each later failure, and a success closes it', () => {
    let policy = initialPolicyState();
    const opened: boolean[] = [];
    for (let failure = 1; failure <= FAILURE_BREAKER_THRESHOLD + 1; failure += 1) {
      const next = afterAutoCompaction(policy, { helped: false, tokens: 1_000 * failure });
      policy = next.policy;
      opened.push(next.opened);
    }
    expect(opened).toEqual([...Array(FAILURE_BREAKER_THRESHOLD - 1).fill(false), true, true]);
    expect(policy.pausedAtTokens).toBe(1_000 * (FAILURE_BREAKER_THRESHOLD + 1));
    expect(isPaused(policy, policy.pausedAtTokens!, settings)).toBe(true);
    const success = afterAutoCompaction(policy, { helped: true, tokens: 10 });
    expect(success.policy).toEqual(initialPolicyState());
  });

  it('helped means under the trigger and by at least minReduction', () => {
    const trigger = triggerTokens(settings);
    expect(compactionHelped(trigger * 2, trigger, settings)).toBe(true);
    expect(compactionHelped(trigger * 2, trigger + 1, settings)).toBe(false);
    expect(compactionHelped(trigger, trigger * (1 - settings.minReduction) + 1, settings)).toBe(false);
  });

  it('escalation and overflow recovery keep less than a normal compaction', () => {
    expect(escalatedKeepRecentTokens(settings)).toBe(1_000);
    expect(overflowKeepRecentTokens(settings)).toBe(2_000);
  });
});
