import type { ReplayFigures } from '../engine/replay-figures.js';
import { formatTokens, withThousands } from './format-tokens.js';

/** `[3, 4, 5, 9]` → `3–5, 9`. */
export function formatCallRanges(calls: readonly number[]): string {
  const ranges: string[] = [];
  for (let index = 0; index < calls.length; index += 1) {
    const start = calls[index]!;
    let end = start;
    while (calls[index + 1] === end + 1) {
      end += 1;
      index += 1;
    }
    ranges.push(end === start ? String(start) : `${start}–${end}`);
  }
  return ranges.join(', ');
}

/**
 * What went wrong in a replay, one line each: every `compaction:error` event (`✗ before
 * call 8: …`) and the calls that sent more than the trigger (`! calls 8–11 sent more than
 * the trigger …`). Empty when nothing did. `prefix` starts every line (e.g. the adapter).
 */
export function formatProblems(figures: ReplayFigures, prefix = ''): string[] {
  const lines = figures.compactionErrors.map(
    (error) => `  ✗ ${prefix}compaction error before call ${error.beforeCall}: ${withThousands(error.message)}`,
  );
  const over = figures.overTriggerCalls;
  if (over.length > 0) {
    const largest = Math.max(...over.map((call) => call.tokens));
    lines.push(
      `  ! ${prefix}${over.length === 1 ? 'call' : 'calls'} ${formatCallRanges(over.map((call) => call.call))} sent more than the trigger of ${formatTokens(figures.settings.triggerTokens)} tokens (largest ${formatTokens(largest)})`,
    );
  }
  return lines;
}
