import type { SessionStats } from '@compaction/core';
import { formatTokens } from '../cli/format-tokens.js';

/** `/stats`: tokens used so far, the window, how full it is, compactions. */
export function formatStats(
  stats: SessionStats,
  used: { inputTokens: number; outputTokens: number; calls: number },
): string[] {
  return [
    `Context: ${formatTokens(stats.contextTokens)} of ${formatTokens(stats.contextWindow)} tokens (${stats.percentUsed}% full; compacts above ${formatTokens(stats.triggerTokens)})`,
    `Compactions: ${stats.compactions}`,
    `Messages: ${stats.historyMessages} in the history, ${stats.contextMessages} in the context`,
    `Tokens used: ${formatTokens(used.inputTokens)} input, ${formatTokens(used.outputTokens)} output over ${used.calls} calls`,
  ];
}
