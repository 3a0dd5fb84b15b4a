/**
 * `pnpm bench` (through turbo, after core's own `bench`): runs every benchmark
 * of this package — each `src/<name>/<name>.bench.ts`, in a fixed order, each in
 * its own process — then renders docs/benchmarks.md from all results present,
 * and the figures block of the root README.md (`render/update-readme.ts`).
 *
 *   node src/run-all.ts [name …]   (from benchmarks/; names pick benchmarks, e.g. `overhead tokenizers`)
 *
 * `BENCH_TINY=1`: every benchmark on a tiny input, results in a temporary
 * folder, the rendered page written there too; docs/benchmarks.md and the README figures are untouched.
 * A benchmark that fails still lets the others run and the page render; the
 * command then exits 1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTiny, resultsDir } from '@compaction/bench-kit/bench-env';
import { updateReadmeFigures } from './render/update-readme.ts';
import { BENCHMARKS_DOC, renderBenchmarks } from './render.ts';

/** Benchmarks with a place in the page come first, in its order; any other runs after them. */
const ORDER = ['overhead', 'tokenizers', 'economy', 'retention', 'import-cost', 'hardening', 'stores', 'long-session'];

const source = fileURLToPath(new URL('./', import.meta.url));
const found = readdirSync(source, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(source, entry.name, `${entry.name}.bench.ts`)))
  .map((entry) => entry.name)
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const picked = process.argv.slice(2);
const names = picked.length > 0 ? found.filter((name) => picked.includes(name)) : found;
const dir = resultsDir();
const started = performance.now();
const failed: string[] = [];

for (const name of names) {
  rmSync(join(dir, `${name}.json`), { force: true }); // a failed run must not leave the last one's figures behind
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(process.execPath, [join(source, name, `${name}.bench.ts`)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS_DIR: dir },
  });
  if (run.status !== 0) failed.push(`${name} (exit ${run.status ?? run.signal})`);
}

const out = isTiny() ? join(dir, 'benchmarks.md') : BENCHMARKS_DOC;
writeFileSync(out, renderBenchmarks(dir));
console.log(`\nwrote ${out} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (!isTiny()) console.log(`README.md figures rendered from: ${updateReadmeFigures(dir).join(', ') || 'nothing'}`);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}

function rank(name: string): number {
  const index = ORDER.indexOf(name);
  return index === -1 ? ORDER.length : index;
}
