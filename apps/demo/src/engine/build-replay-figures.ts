import { getContextWindow, resolveSettings, triggerTokens } from '@compaction/core';
import type { Recording } from '../recording/recording.js';
import { costUnits, recordedBilledTokens } from './cost-units.js';
import type { ReplayFigures, ReplayTotals } from './replay-figures.js';
import type { ReplayRun } from './replay-result.js';
import type { RunReplayOptions } from './run-replay.js';

function recordedTotals(recording: Recording): ReplayTotals | null {
  if (recording.calls.length === 0) return null;
  let cost = 0;
  const totals: ReplayTotals = {
    calls: recording.calls.length,
    inputTokens: 0,
    maxContextTokens: 0,
    outputTokens: 0,
    summarizationCalls: recording.summarizationCalls.length,
    summarizationInputTokens: 0,
    summarizationOutputTokens: 0,
    costUnits: 0,
  };
  for (const call of recording.calls) {
    totals.inputTokens += call.contextTokens;
    totals.maxContextTokens = Math.max(totals.maxContextTokens, call.contextTokens);
    totals.outputTokens += call.usage.outputTokens;
    cost += costUnits(recordedBilledTokens(call.usage));
  }
  for (const call of recording.summarizationCalls) {
    totals.summarizationInputTokens += call.contextTokens;
    totals.summarizationOutputTokens += call.usage.outputTokens;
    cost += costUnits(recordedBilledTokens(call.usage));
  }
  totals.costUnits = Math.round(cost);
  return totals;
}

function oursTotals(run: ReplayRun): ReplayTotals {
  let cost = 0;
  const totals: ReplayTotals = {
    calls: run.calls.length,
    inputTokens: 0,
    maxContextTokens: 0,
    outputTokens: 0,
    summarizationCalls: run.summarizations.length,
    summarizationInputTokens: 0,
    summarizationOutputTokens: 0,
    costUnits: 0,
  };
  for (const call of run.calls) {
    totals.inputTokens += call.ours;
    totals.maxContextTokens = Math.max(totals.maxContextTokens, call.ours);
    totals.outputTokens += call.outputTokens;
    cost += costUnits({ input: 0, cacheWrite: call.cacheWrite, cacheRead: call.cacheRead, output: call.outputTokens });
  }
  for (const summary of run.summarizations) {
    totals.summarizationInputTokens += summary.inputTokens;
    totals.summarizationOutputTokens += summary.outputTokens;
    cost += costUnits({ input: summary.inputTokens, cacheWrite: 0, cacheRead: 0, output: summary.outputTokens });
  }
  totals.costUnits = Math.round(cost);
  return totals;
}

/** The call (1-based) a recorded compaction came before: the first call at or after its message. */
function callAfter(recording: Recording, run: ReplayRun, messageIndex: number): number | null {
  const indexById = new Map(recording.messages.map((message, index) => [message.id, index]));
  const call = run.calls.find((entry) => (indexById.get(entry.messageId) ?? -1) >= messageIndex);
  return call ? call.call : null;
}

/**
 * The figures of a replay: per call recorded beside ours, the compactions of both, and
 * the totals with cache-aware cost units (see `COST_WEIGHTS`).
 */
export function buildReplayFigures(
  recording: Recording,
  run: ReplayRun,
  options: Pick<RunReplayOptions, 'settings' | 'model'> & { turns: ReadonlyMap<string, number> },
): ReplayFigures {
  const settings = resolveSettings(options.settings, getContextWindow(options.model));
  const oursByCall = new Map(run.calls.map((call) => [call.call, call.ours]));
  return {
    file: recording.file,
    format: recording.format,
    ...(recording.name === undefined ? {} : { name: recording.name }),
    ...(options.model === undefined ? {} : { model: options.model }),
    adapter: run.adapter,
    settings: {
      contextWindow: settings.contextWindow,
      triggerTokens: triggerTokens(settings),
      keepRecentTokens: settings.keepRecentTokens,
      reserveTokens: settings.reserveTokens,
    },
    scale: { overheadTokens: run.overheadTokens, tokenRatio: Math.round(run.tokenRatio * 1000) / 1000 },
    calls: run.calls.map((call) => ({
      call: call.call,
      turn: options.turns.get(call.messageId) ?? 0,
      recorded: call.recorded ?? null,
      ours: call.ours,
      uncompacted: call.uncompacted,
      cacheRead: call.cacheRead,
      cacheWrite: call.cacheWrite,
      output: call.outputTokens,
      compactedBefore: call.compactedBefore,
    })),
    compactions: run.compactions.map((compaction) => ({
      beforeCall: compaction.beforeCall,
      trigger: compaction.trigger,
      strategy: compaction.strategy,
      messagesSummarized: compaction.messagesSummarized,
      toolOutputsPruned: compaction.toolOutputsPruned,
      tokensBefore: compaction.tokensBefore,
      tokensAfter: compaction.tokensAfter,
      nextCallTokens: oursByCall.get(compaction.beforeCall) ?? null,
      summary: compaction.summary,
    })),
    compactionErrors: run.compactionErrors,
    recordedCompactions: recording.compactions.map((compaction) => ({
      beforeCall: callAfter(recording, run, compaction.messageIndex),
      preTokens: compaction.preTokens ?? null,
      trigger: compaction.trigger ?? null,
      summary: compaction.summary,
    })),
    totals: { recorded: recordedTotals(recording), ours: oursTotals(run) },
    warnings: recording.warnings,
  };
}
