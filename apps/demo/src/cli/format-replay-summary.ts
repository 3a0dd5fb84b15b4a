import type { ReplayFigures } from '../engine/replay-figures.js';
import { formatChange, formatTokens } from './format-tokens.js';

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * A replay in a few lines: the recorded side's input tokens (summaries included),
 * largest context and compactions, ours beside with the change, the cost units, and
 * how many compaction errors and calls above the trigger there were. The same figures
 * as `replay`'s totals, the report and the benchmarks (`buildReplayFigures`).
 */
export function formatReplaySummary(figures: ReplayFigures, recordedLabel = 'recorded'): string[] {
  const { recorded, ours } = figures.totals;
  const oursCompactions = plural(figures.compactions.length, 'compaction');
  const lines: string[] = [];
  if (recorded) {
    lines.push(
      `  ${recordedLabel}: ${formatTokens(recorded.inputTokens)} input tokens (summaries included), largest context ${formatTokens(recorded.maxContextTokens)}, ${plural(figures.recordedCompactions.length, 'compaction')}, ${formatTokens(recorded.costUnits)} cost units`,
      `  ours:        ${formatTokens(ours.inputTokens)} input tokens (${formatChange(recorded.inputTokens, ours.inputTokens)}), largest context ${formatTokens(ours.maxContextTokens)} (${formatChange(recorded.maxContextTokens, ours.maxContextTokens)}), ${oursCompactions}, ${formatTokens(ours.costUnits)} cost units (${formatChange(recorded.costUnits, ours.costUnits)})`,
    );
  } else {
    lines.push(
      `  ours: ${formatTokens(ours.inputTokens)} input tokens (summaries included), largest context ${formatTokens(ours.maxContextTokens)}, ${oursCompactions}, ${formatTokens(ours.costUnits)} cost units`,
    );
  }
  lines.push(
    `  ${plural(figures.compactionErrors.length, 'compaction error')}, ${plural(figures.overTriggerCalls.length, 'call')} above the trigger of ${formatTokens(figures.settings.triggerTokens)}`,
  );
  for (const note of figures.notes) lines.push(`  note: ${note}`);
  return lines;
}
