import type { RecordedUsage } from '@compaction/claude-code-import';

/**
 * Relative price of each kind of token, in units of one uncached input token:
 * input ×1, cache write ×1.25, cache read ×0.1, output ×5 (Anthropic's published ratios).
 */
export const COST_WEIGHTS = Object.freeze({ input: 1, cacheWrite: 1.25, cacheRead: 0.1, output: 5 });

/** Token figures of one call, by how they are billed. */
export type BilledTokens = { input: number; cacheWrite: number; cacheRead: number; output: number };

/** Cost units of one call: each kind of token times its {@link COST_WEIGHTS} weight. */
export function costUnits(tokens: BilledTokens): number {
  return (
    tokens.input * COST_WEIGHTS.input +
    tokens.cacheWrite * COST_WEIGHTS.cacheWrite +
    tokens.cacheRead * COST_WEIGHTS.cacheRead +
    tokens.output * COST_WEIGHTS.output
  );
}

/** The billed tokens of a call as Claude Code recorded them. */
export function recordedBilledTokens(usage: RecordedUsage): BilledTokens {
  return {
    input: usage.inputTokens,
    cacheWrite: usage.cacheCreationInputTokens,
    cacheRead: usage.cacheReadInputTokens,
    output: usage.outputTokens,
  };
}
