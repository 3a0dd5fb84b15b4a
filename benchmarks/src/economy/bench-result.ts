import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A cell of a result table: a number (raw, unformatted), a text, or null for "not applicable". */
export type BenchCell = number | string | null;

/** Whether one stated target holds, with the figures that decide it. */
export type BenchTarget = { target: string; holds: boolean; detail: string };

/** What a benchmark script writes to `results/<name>.json` (the renderer's input). */
export type BenchResult = {
  name: string;
  title: string;
  /** One paragraph: what was measured and how. */
  description: string;
  columns: string[];
  rows: BenchCell[][];
  notes: string[];
  /** The targets the issue set, each checked against the rows. Empty when none apply. */
  targets: BenchTarget[];
  /** True when run with `BENCH_TINY=1` (short fixtures only). */
  tiny: boolean;
};

/** `results/` of the benchmarks package, or `BENCH_RESULTS_DIR` when set. */
export function resultsDir(): string {
  return process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('../../results/', import.meta.url));
}

/** Writes `result` to `<resultsDir>/<name>.json` and returns the path. */
export function writeBenchResult(result: BenchResult): string {
  const directory = resultsDir();
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${result.name}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
