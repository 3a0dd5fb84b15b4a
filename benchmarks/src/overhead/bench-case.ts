import type { Stats } from '@compaction/bench-kit/measure';
import type { Message } from '@compaction/core';

/** Whose code a case measures: ours, a peer users would otherwise use, or a reference point. */
export type CaseKind = 'ours' | 'variant' | 'peer' | 'reference';

/**
 * What a call faces: `per-call` — nothing to compact (the common case);
 * `compaction` — the one call that compacts (one-off); `trimming` — a peer that
 * must cut on every call; `after-compaction` — our per-call cost once a
 * compaction state exists.
 */
export type Scenario = 'per-call' | 'compaction' | 'trimming' | 'after-compaction';

/**
 * How expensive one call is expected to be, which sets how many samples are
 * taken: `fast` (well under a millisecond), `medium` (milliseconds), `slow`
 * (up to seconds), `quadratic` (seconds growing with the square of the history),
 * `one-off` (a compaction, with a costly set-up before each call).
 */
export type CaseCost = 'fast' | 'medium' | 'slow' | 'quadratic' | 'one-off';

/** What a case gets to run on. */
export type CaseInput = {
  /** The shared synthetic history (core messages); every case converts the same one. */
  history: Message[];
  /** Its tokens by core's count (tiktoken o200k_base), for triggers and limits. */
  tokens: number;
  /** Measured calls and warm-up calls for this case at this size. */
  samples: number;
  warmup: number;
};

/** What a case reports for one size. */
export type CaseOutcome = {
  stats: Stats;
  /** Messages in the history when the last call ran (each per-call sample appends one). */
  messagesAtEnd: number;
  /** For compaction cases: the strategy core reported (`structured`, `prune`, …). */
  strategy?: string;
};

/** One row of the per-call overhead table. */
export type BenchCase = {
  id: string;
  label: string;
  framework: 'core' | 'ai-sdk' | 'langchain' | 'mastra';
  kind: CaseKind;
  scenario: Scenario;
  cost: CaseCost;
  /** The id of our case this one is compared with (ratio = this median / that median). */
  baseline?: string;
  /** What exactly is timed, in a sentence. */
  note: string;
  run(input: CaseInput): Promise<CaseOutcome>;
};

/** Settings under which no history here reaches the trigger. */
export const NO_COMPACTION = { contextWindow: 50_000_000 } as const;

/**
 * Settings under which the history of `tokens` is just under the trigger, so
 * appending one ~250-token message makes the next call compact. Tool-output
 * pruning is off so the measured compaction summarizes (the costlier path).
 */
export function compactAfter(tokens: number) {
  const trigger = tokens + 100;
  // A window four times the trigger: an absolute trigger must be a sensible share of its window.
  // The kept budget is the default's 20,000 tokens (a quarter of a tiny history).
  return {
    contextWindow: 4 * trigger,
    trigger,
    reserveTokens: trigger,
    keepRecentTokens: Math.min(20_000, Math.round(tokens / 4)),
    pruneToolOutputs: false,
  } as const;
}

/** Throws when a call that should not have compacted did (or the reverse): a benchmark must measure what it says. */
export function expectCompaction(compacted: boolean, expected: boolean, what: string): void {
  if (compacted !== expected)
    throw new Error(
      `${what}: expected ${expected ? 'a compaction' : 'no compaction'}, got ${compacted ? 'one' : 'none'}`,
    );
}
