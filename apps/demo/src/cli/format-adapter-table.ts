import type { AdapterName } from '../engine/adapter-name.js';
import type { ReplayFigures } from '../engine/replay-figures.js';
import { formatChange, formatTokens } from './format-tokens.js';

/** One adapter's replay of the same conversation. */
export type AdapterRun = { adapter: AdapterName; figures: ReplayFigures };

/** `prune 7, structured 12`: each compaction's strategy and the call it came before. */
function compactionsCell(figures: ReplayFigures): string {
  if (figures.compactions.length === 0) return 'none';
  return figures.compactions.map((compaction) => `${compaction.strategy} ${compaction.beforeCall}`).join(', ');
}

/**
 * What each adapter did with the same conversation, one row each: its compactions
 * (strategy and the call each came before), the largest context it sent, the input
 * tokens of all its calls (summaries included) against the full history's, its
 * compaction errors and the calls it sent above the trigger.
 */
export function formatAdapterTable(runs: readonly AdapterRun[]): string[] {
  const rows = runs.map(({ adapter, figures }) => {
    const ours = figures.totals.ours;
    const uncompacted = figures.calls.reduce((sum, call) => sum + call.uncompacted, 0);
    return [
      adapter,
      compactionsCell(figures),
      formatTokens(ours.maxContextTokens),
      formatTokens(ours.inputTokens),
      formatChange(uncompacted, ours.inputTokens),
      String(figures.compactionErrors.length),
      String(figures.overTriggerCalls.length),
    ];
  });
  const header = [
    'adapter',
    'compactions (before call)',
    'largest context',
    'input tokens',
    'vs full history',
    'errors',
    'calls > trigger',
  ];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => (column <= 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].map((text) => `  ${text}`);
}
