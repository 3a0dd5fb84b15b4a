import type { ReplayFigures } from '../engine/replay-figures.js';
import { formatTokens } from './format-tokens.js';

const pad = (text: string, width: number): string => text.padStart(width);

/**
 * Seed 000's table, per turn: the context of the turn's first call (its baseline) without
 * and with compaction, the largest context with compaction, and the input tokens of all
 * the turn's calls without and with.
 */
export function formatTurnTable(figures: ReplayFigures): string[] {
  const lines = [
    `${pad('turn', 5)} ${pad('calls', 6)} ${pad('baseline without', 17)} ${pad('baseline with', 14)} ${pad('peak with', 10)} ${pad('input without', 14)} ${pad('input with', 11)}`,
  ];
  const turns = [...new Set(figures.calls.map((call) => call.turn))];
  let totalWithout = 0;
  let totalWith = 0;
  for (const turn of turns) {
    const calls = figures.calls.filter((call) => call.turn === turn);
    const first = calls[0]!;
    const without = calls.reduce((sum, call) => sum + call.uncompacted, 0);
    const withCompaction = calls.reduce((sum, call) => sum + call.ours, 0);
    totalWithout += without;
    totalWith += withCompaction;
    const peak = Math.max(...calls.map((call) => call.ours));
    const compacted = calls.some((call) => call.compactedBefore) ? ' (compacted)' : '';
    lines.push(
      `${pad(String(turn), 5)} ${pad(String(calls.length), 6)} ${pad(formatTokens(first.uncompacted), 17)} ${pad(formatTokens(first.ours), 14)} ${pad(formatTokens(peak), 10)} ${pad(formatTokens(without), 14)} ${pad(formatTokens(withCompaction), 11)}${compacted}`,
    );
  }
  lines.push(
    `${'total'.padStart(5)} ${pad(String(figures.calls.length), 6)} ${''.padStart(17)} ${''.padStart(14)} ${''.padStart(10)} ${pad(formatTokens(totalWithout), 14)} ${pad(formatTokens(totalWith), 11)}`,
  );
  return lines;
}
