import { Bench, type FnOptions } from 'tinybench';

/** Latency statistics of one measured task, in milliseconds. */
export type Stats = {
  median: number;
  p90: number;
  min: number;
  max: number;
  mean: number;
  /** Median absolute deviation. */
  mad: number;
  samples: number;
};

/** How long to measure one task. */
export type MeasureOptions = {
  /** Measured calls (tinybench `iterations`; the time budget is 0, so exactly this many). */
  samples: number;
  /** Calls before measuring, to let the JIT settle. @default max(2, samples / 10) */
  warmup?: number;
  /** Runs before each call, not timed (tinybench `beforeEach`). */
  beforeEach?: () => unknown;
  /** Runs after each call, not timed (tinybench `afterEach`). */
  afterEach?: () => unknown;
  /**
   * Whether `fn` returns a promise to await. Set, so tinybench does not call
   * `fn` an extra time to find out. @default true
   */
  async?: boolean;
};

/**
 * Measures `fn` with tinybench: `warmup` calls first, then `samples` timed
 * calls. `fn` may return `{ overriddenDuration }` (ms) to report only part of
 * what it did. Throws when the task fails, so a broken benchmark never shows as fast.
 */
export async function measure(name: string, fn: () => unknown, options: MeasureOptions): Promise<Stats> {
  const warmup = options.warmup ?? Math.max(2, Math.round(options.samples / 10));
  const bench = new Bench({
    name,
    time: 0,
    iterations: options.samples,
    warmup: warmup > 0,
    warmupTime: 0,
    warmupIterations: warmup,
    retainSamples: true,
    throws: true,
  });
  const taskOptions: FnOptions = {
    async: options.async ?? true,
    ...(options.beforeEach ? { beforeEach: async () => void (await options.beforeEach?.()) } : {}),
    ...(options.afterEach ? { afterEach: async () => void (await options.afterEach?.()) } : {}),
  };
  bench.add(name, fn, taskOptions);
  await bench.run();
  const task = bench.tasks[0]!;
  const result = task.result;
  if (result.state !== 'completed') throw new Error(`benchmark "${name}" did not complete: ${result.state}`);
  const latency = result.latency;
  const samples = [...(latency.samples ?? [])].sort((a, b) => a - b);
  return {
    median: latency.p50,
    p90: percentile(samples, 0.9),
    min: latency.min,
    max: latency.max,
    mean: latency.mean,
    mad: latency.mad,
    samples: latency.samplesCount,
  };
}

/** The `q` quantile of sorted samples (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** A timer for the part of a task that should count: `const t = timer(); …; return { overriddenDuration: t() }`. */
export function timer(): () => number {
  const start = performance.now();
  return () => performance.now() - start;
}
