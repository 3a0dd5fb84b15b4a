import { getContextWindow, resolveSettings, triggerTokens } from '@compaction/core';
import type { Recording } from '../recording/recording.js';
import type { ReplayFigures } from './replay-figures.js';
import { replayNotes } from './replay-notes.js';
import type { ReplayRun } from './replay-result.js';
import { oursTotals, recordedTotals } from './replay-totals.js';
import type { RunReplayOptions } from './run-replay.js';

/** The call (1-based) a recorded compaction came before: the first call at or after its message. */
function callAfter(recording: Recording, run: ReplayRun, messageIndex: number): number | null {
  const indexById = new Map(recording.messages.map((message, index) => [message.id, index]));
  const call = run.calls.find((entry) => (indexById.get(entry.messageId) ?? -1) >= messageIndex);
  return call ? call.call : null;
}

/**
 * The figures of a replay: per call recorded beside ours, the compactions of both, every
 * compaction error and call above the trigger, and the totals with cache-aware cost
 * units (see `COST_WEIGHTS` and `oursTotals`). The demo, the report and the benchmarks
 * all read their figures from here.
 */
export function buildReplayFigures(
  recording: Recording,
  run: ReplayRun,
  options: Pick<RunReplayOptions, 'settings' | 'model'> & { turns: ReadonlyMap<string, number> },
): ReplayFigures {
  const settings = resolveSettings(options.settings, getContextWindow(options.model));
  const oursByCall = new Map(run.calls.map((call) => [call.call, call.ours]));
  const trigger = triggerTokens(settings);
  const figures: ReplayFigures = {
    file: recording.file,
    format: recording.format,
    ...(recording.name === undefined ? {} : { name: recording.name }),
    ...(options.model === undefined ? {} : { model: options.model }),
    adapter: run.adapter,
    settings: {
      contextWindow: settings.contextWindow,
      triggerTokens: trigger,
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
    overTriggerCalls: run.calls
      .filter((call) => call.ours > trigger)
      .map((call) => ({ call: call.call, tokens: call.ours })),
    notes: [],
    recordedCompactions: recording.compactions.map((compaction) => ({
      beforeCall: callAfter(recording, run, compaction.messageIndex),
      preTokens: compaction.preTokens ?? null,
      trigger: compaction.trigger ?? null,
      summary: compaction.summary,
    })),
    totals: { recorded: recordedTotals(recording), ours: oursTotals(run, recording) },
    warnings: recording.warnings,
  };
  figures.notes = replayNotes(figures);
  return figures;
}
