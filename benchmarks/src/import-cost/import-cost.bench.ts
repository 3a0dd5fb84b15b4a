/**
 * What `import('@compaction/core')` costs a process: wall time of the import and
 * resident memory (RSS) above a bare Node process, then what the first token
 * count adds (it loads the one encoding it needs, once). Each sample is a fresh
 * child process (bare Node, or Node importing the built package), alternated so
 * that load on the machine hits both alike; figures are medians. Writes
 * `import-cost.json`. Needs a build (`pnpm bench` builds first).
 *
 *   node src/import-cost/import-cost.bench.ts   (from benchmarks/)
 */
import { spawnSync } from 'node:child_process';
import { BENCHMARKS_DIR, isTiny, startResult } from '@compaction/bench-kit/bench-env';
import { type ImportCostSample, summarize } from './import-cost-stats.ts';

const SAMPLES = isTiny() ? 3 : 41;

/** The targets from issue 12: the import itself must stay cheap. */
export const IMPORT_TARGET = { ms: 50, rssMb: 15 } as const;

const result = startResult('import-cost', 'cd benchmarks && node src/import-cost/import-cost.bench.ts');

/**
 * The child's script: `what` is `bare` (nothing imported), `core` (the import), or
 * `count-gpt` / `count-tiktoken` (the import, then the first count with that
 * counter). It prints one JSON sample.
 */
function childScript(what: string): string {
  return `
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const core = ${what === 'bare' ? '{}' : "await import('@compaction/core')"};
    const importMs = performance.now() - started;
    const rssAfterImport = process.memoryUsage().rss;
    let countMs = 0;
    if (${JSON.stringify(what)}.startsWith('count-')) {
      const counter = ${JSON.stringify(what)} === 'count-gpt' ? core.gptTokenizerCounter() : core.tiktokenCounter();
      const countStarted = performance.now();
      counter.countText('Fix the parser bug in src/parse.ts, then run the tests.');
      countMs = performance.now() - countStarted;
    }
    console.log(JSON.stringify({ importMs, countMs, rssBefore, rssAfterImport, rss: process.memoryUsage().rss }));
  `;
}

function sample(what: string): ImportCostSample {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', childScript(what)], {
    cwd: BENCHMARKS_DIR,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`import-cost child (${what}) failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim()) as ImportCostSample;
}

const kinds = ['bare', 'core', 'count-gpt', 'count-tiktoken'] as const;
const samples: Record<(typeof kinds)[number], ImportCostSample[]> = {
  bare: [],
  core: [],
  'count-gpt': [],
  'count-tiktoken': [],
};
for (const kind of kinds) sample(kind); // one unmeasured run each: file-system caches warm for all alike
for (let index = 0; index < SAMPLES; index += 1) {
  for (const kind of kinds) samples[kind].push(sample(kind));
}

const figures = summarize(samples, IMPORT_TARGET);
const path = result.finish({ samples: SAMPLES, target: IMPORT_TARGET, ...figures });
console.log(
  `import('@compaction/core'): ${figures.import.ms.toFixed(1)} ms, +${figures.import.rssMb.toFixed(1)} MB RSS above bare Node` +
    ` (target ≤ ${IMPORT_TARGET.ms} ms, ≤ ${IMPORT_TARGET.rssMb} MB: ${figures.meetsTarget ? 'met' : 'NOT met'});` +
    ` first count gpt-tokenizer ${figures.firstCount.gptTokenizer.ms.toFixed(0)} ms +${figures.firstCount.gptTokenizer.rssMb.toFixed(1)} MB,` +
    ` tiktoken ${figures.firstCount.tiktoken.ms.toFixed(0)} ms +${figures.firstCount.tiktoken.rssMb.toFixed(1)} MB. Wrote ${path}`,
);
