import type { ReplayFigures } from '../engine/replay-figures.js';
import { formatCompaction } from './format-compaction.js';
import { formatProblems } from './format-problems.js';
import { formatChange, formatTokens, withThousands } from './format-tokens.js';

const pad = (text: string, width: number): string => text.padStart(width);

/** The header lines of a replay: what was replayed, how, and with which settings. */
export function formatReplayHeader(figures: ReplayFigures): string[] {
  const { settings, scale } = figures;
  const lines = [
    `Replay of ${figures.file} through ${figures.adapter} — ${figures.calls.length} model calls${figures.model ? `, model ${figures.model}` : ''}`,
    `Settings: window ${formatTokens(settings.contextWindow)}, trigger ${formatTokens(settings.triggerTokens)}, keep ${formatTokens(settings.keepRecentTokens)} recent tokens`,
  ];
  if (scale.overheadTokens > 0 || scale.tokenRatio !== 1) {
    lines.push(
      `Calibrated on the recording: context ≈ ${formatTokens(scale.overheadTokens)} (system prompt, tools) + ${scale.tokenRatio} × o200k tokens of the messages`,
    );
  }
  return lines;
}

/**
 * The per-call table of a replay — call, recorded context, ours, full history — with a
 * `▸` line for each compaction and a `✗` line for each compaction error before the call
 * it preceded. A call right after one of our compactions is marked `*`, a call that sent
 * more than the trigger `!`.
 */
export function formatReplayTable(figures: ReplayFigures): string[] {
  const lines = [`${pad('call', 6)} ${pad('recorded', 10)} ${pad('ours', 10)} ${pad('uncompacted', 12)}`];
  const compactions = new Map(figures.compactions.map((compaction) => [compaction.beforeCall, compaction]));
  const overTrigger = new Set(figures.overTriggerCalls.map((call) => call.call));
  const recordedCompactions = new Map(
    figures.recordedCompactions.map((compaction) => [compaction.beforeCall, compaction]),
  );
  for (const call of figures.calls) {
    const recordedCompaction = recordedCompactions.get(call.call);
    if (recordedCompaction) {
      lines.push(
        `  ◂ recorded harness compacted here (${recordedCompaction.trigger ?? 'unknown'}, ${formatTokens(recordedCompaction.preTokens ?? 0)} tokens before)`,
      );
    }
    const compaction = compactions.get(call.call);
    if (compaction) lines.push(`  ▸ ${formatCompaction(compaction)}`);
    for (const error of figures.compactionErrors) {
      if (error.beforeCall === call.call) lines.push(`  ✗ compaction error: ${withThousands(error.message)}`);
    }
    const recorded = call.recorded === null ? '—' : formatTokens(call.recorded);
    lines.push(
      `${pad(String(call.call), 6)} ${pad(recorded, 10)} ${pad(formatTokens(call.ours), 10)} ${pad(formatTokens(call.uncompacted), 12)}${call.compactedBefore ? ' *' : ''}${overTrigger.has(call.call) ? ' !' : ''}`,
    );
  }
  return lines;
}

/**
 * The totals of a replay, recorded beside ours: input tokens of every call (summaries
 * included), of which the model calls and the summarization calls, the largest context
 * and the cost units; then every compaction error and call above the trigger.
 */
export function formatReplayTotals(figures: ReplayFigures): string[] {
  const { recorded, ours } = figures.totals;
  const row = (label: string, recordedValue: number | undefined, oursValue: number): string =>
    `  ${label.padEnd(22)} ${pad(recordedValue === undefined ? '—' : formatTokens(recordedValue), 14)} ${pad(formatTokens(oursValue), 14)}${recordedValue === undefined ? '' : `  ${formatChange(recordedValue, oursValue)}`}`;
  return [
    `  ${''.padEnd(22)} ${pad('recorded', 14)} ${pad('ours', 14)}`,
    row('input tokens', recorded?.inputTokens, ours.inputTokens),
    row('  of which model calls', recorded?.callInputTokens, ours.callInputTokens),
    row('  of which summaries', recorded?.summarizationInputTokens, ours.summarizationInputTokens),
    row('largest context', recorded?.maxContextTokens, ours.maxContextTokens),
    row('cost units', recorded?.costUnits, ours.costUnits),
    `  compactions: recorded ${figures.recordedCompactions.length}, ours ${figures.compactions.length}; compaction errors ${figures.compactionErrors.length}; calls above the trigger ${figures.overTriggerCalls.length}`,
    '  cost units = input ×1 + cache write ×1.25 + cache read ×0.1 + output ×5; the first call billed as recorded on both sides',
    ...formatProblems(figures),
    ...figures.notes.map((note) => `  note: ${note}`),
  ];
}
