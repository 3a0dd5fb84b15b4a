import type { Recording } from '../recording/recording.js';
import { costUnits, recordedBilledTokens } from './cost-units.js';
import type { ReplayTotals } from './replay-figures.js';
import type { ReplayRun } from './replay-result.js';

function emptyTotals(calls: number, summarizationCalls: number): ReplayTotals {
  return {
    calls,
    inputTokens: 0,
    callInputTokens: 0,
    maxContextTokens: 0,
    outputTokens: 0,
    summarizationCalls,
    summarizationInputTokens: 0,
    summarizationOutputTokens: 0,
    costUnits: 0,
  };
}

/** The recording's own totals: its model calls and its summarization calls, as billed. Null without usage. */
export function recordedTotals(recording: Recording): ReplayTotals | null {
  if (recording.calls.length === 0) return null;
  const totals = emptyTotals(recording.calls.length, recording.summarizationCalls.length);
  let cost = 0;
  for (const call of recording.calls) {
    totals.callInputTokens += call.contextTokens;
    totals.maxContextTokens = Math.max(totals.maxContextTokens, call.contextTokens);
    totals.outputTokens += call.usage.outputTokens;
    cost += costUnits(recordedBilledTokens(call.usage));
  }
  for (const call of recording.summarizationCalls) {
    totals.summarizationInputTokens += call.contextTokens;
    totals.summarizationOutputTokens += call.usage.outputTokens;
    cost += costUnits(recordedBilledTokens(call.usage));
  }
  totals.inputTokens = totals.callInputTokens + totals.summarizationInputTokens;
  totals.costUnits = Math.round(cost);
  return totals;
}

/**
 * Our totals. Every call after the first is billed by the replay's prefix-cache model
 * (cache read ×0.1, the rest cache write ×1.25, output ×5); every summary as a model
 * call (input ×1, output ×5). The first call is billed as the recording billed it when
 * it has usage: nothing is compacted before it, so it is the same prompt on both
 * sides, and the recording read most of it from a cache earlier sessions wrote.
 */
export function oursTotals(run: ReplayRun, recording: Recording): ReplayTotals {
  const totals = emptyTotals(run.calls.length, run.summarizations.length);
  const recordedFirst = recording.calls[0];
  let cost = 0;
  for (const [index, call] of run.calls.entries()) {
    totals.callInputTokens += call.ours;
    totals.maxContextTokens = Math.max(totals.maxContextTokens, call.ours);
    totals.outputTokens += call.outputTokens;
    cost +=
      index === 0 && recordedFirst
        ? costUnits(recordedBilledTokens(recordedFirst.usage))
        : costUnits({ input: 0, cacheWrite: call.cacheWrite, cacheRead: call.cacheRead, output: call.outputTokens });
  }
  for (const summary of run.summarizations) {
    totals.summarizationInputTokens += summary.inputTokens;
    totals.summarizationOutputTokens += summary.outputTokens;
    cost += costUnits({ input: summary.inputTokens, cacheWrite: 0, cacheRead: 0, output: summary.outputTokens });
  }
  totals.inputTokens = totals.callInputTokens + totals.summarizationInputTokens;
  totals.costUnits = Math.round(cost);
  return totals;
}
