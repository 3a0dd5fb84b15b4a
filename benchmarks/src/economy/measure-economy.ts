import { type CompactionPreset, structuredSummarizer } from '@compaction/core';
import {
  costUnits,
  type Recording,
  type ReplayFigures,
  type ReplayTotals,
  recordedBilledTokens,
  replayRecording,
} from '@compaction/demo';

/** One side of the comparison on one session: the recording, or a replay with a preset. */
export type EconomyRun = {
  run: string;
  calls: number;
  maxContextTokens: number;
  compactions: number;
  /** Input tokens of every model call plus every summarization call. */
  inputTokens: number;
  summarizationInputTokens: number;
  /** Cache-aware cost units, summarization calls included. */
  costUnits: number;
};

/** The runs of one session: Claude Code's recorded figures (when it has usage) and one replay per preset. */
export type EconomySession = {
  file: string;
  recorded: EconomyRun | null;
  /** How the recording compacted, e.g. `auto at 167,094` (empty when it did not). */
  recordedCompactions: string[];
  replays: { preset: string; run: EconomyRun; strategies: string[] }[];
  /**
   * Our cost over Claude Code's on the calls where both sent the same context (after the
   * first call, before either side compacted), from the first replay: how much of a cost
   * difference the replay's ideal prefix cache alone makes. Null without such calls.
   */
  cacheModelRatio: { ratio: number; calls: number } | null;
};

/** One side's totals, exactly as the demo and its report show them (one cost model: `buildReplayFigures`). */
function fromTotals(run: string, totals: ReplayTotals, compactions: number): EconomyRun {
  return {
    run,
    calls: totals.calls,
    maxContextTokens: totals.maxContextTokens,
    compactions,
    inputTokens: totals.inputTokens,
    summarizationInputTokens: totals.summarizationInputTokens,
    costUnits: totals.costUnits,
  };
}

function cacheModelRatio(figures: ReplayFigures, recording: Recording): EconomySession['cacheModelRatio'] {
  if (figures.calls.length !== recording.calls.length) return null;
  const end = Math.min(
    figures.compactions[0]?.beforeCall ?? Number.POSITIVE_INFINITY,
    figures.recordedCompactions[0]?.beforeCall ?? Number.POSITIVE_INFINITY,
    figures.calls.length + 1,
  );
  let ours = 0;
  let recorded = 0;
  // Calls are 1-based: skip call 1 (billed as recorded) and stop before the first compaction.
  for (let index = 1; index < end - 1; index += 1) {
    const call = figures.calls[index]!;
    ours += costUnits({ input: 0, cacheWrite: call.cacheWrite, cacheRead: call.cacheRead, output: call.output });
    recorded += costUnits(recordedBilledTokens(recording.calls[index]!.usage));
  }
  if (recorded === 0) return null;
  return { ratio: Math.round((ours / recorded) * 1000) / 1000, calls: Math.max(0, end - 2) };
}

/**
 * Replays `recording` through core's session once per preset (structured summarizer at
 * the preset's budget, metered as an LLM call) and puts Claude Code's own figures beside.
 */
export async function measureEconomy(
  recording: Recording,
  presets: Readonly<Record<string, CompactionPreset>>,
): Promise<EconomySession> {
  const replays: EconomySession['replays'] = [];
  let figures: ReplayFigures | undefined;
  let cacheModel: EconomySession['cacheModelRatio'] = null;
  for (const [name, preset] of Object.entries(presets)) {
    figures = await replayRecording(recording, {
      adapter: 'core',
      settings: { ...preset.settings },
      summarizer: structuredSummarizer({ maxTokens: preset.summaryMaxTokens }),
    });
    replays.push({
      preset: name,
      run: fromTotals(`@compaction ${name}`, figures.totals.ours, figures.compactions.length),
      strategies: figures.compactions.map((compaction) => compaction.strategy),
    });
    cacheModel ??= cacheModelRatio(figures, recording);
  }
  const recorded = figures?.totals.recorded;
  return {
    file: recording.file,
    recorded: recorded ? fromTotals('Claude Code (recorded)', recorded, recording.compactions.length) : null,
    recordedCompactions: recording.compactions.map(
      (compaction) => `${compaction.trigger ?? 'unknown'} at ${compaction.preTokens?.toLocaleString('en-US') ?? '?'}`,
    ),
    replays,
    cacheModelRatio: cacheModel,
  };
}
