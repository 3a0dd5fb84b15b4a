/**
 * Rewrites the figures block of the root README.md from the benchmark results (see
 * `readme-figures.ts`). `run-all.ts` calls it after a full run; run alone:
 *
 *   node src/render/update-readme.ts            (from benchmarks/; reads BENCH_RESULTS_DIR or results/)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resultsDir } from '@compaction/bench-kit/bench-env';
import { type PrepareSizes, type RowsResult, renderFigures, replaceFigures } from './readme-figures.ts';
import { readResult } from './result-files.ts';

/** The root README.md. */
export const ROOT_README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/** Rewrites `readmePath`'s figures from the results in `dir`; returns the keys it rendered. */
export function updateReadmeFigures(dir: string, readmePath = ROOT_README): string[] {
  const figures = renderFigures({
    ...optional('economy', readResult<RowsResult>(dir, 'economy')),
    ...optional('retention', readResult<RowsResult>(dir, 'retention')),
    ...optional('corePrepare', readResult<PrepareSizes>(dir, 'core-prepare')),
  });
  const before = readFileSync(readmePath, 'utf8');
  const after = replaceFigures(before, figures);
  if (after !== before) writeFileSync(readmePath, after);
  return Object.keys(figures);
}

function optional<K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rendered = updateReadmeFigures(resultsDir());
  console.log(`README.md figures rendered from: ${rendered.join(', ') || 'nothing (no results)'}`);
}
