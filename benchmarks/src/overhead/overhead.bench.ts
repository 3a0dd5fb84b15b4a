/**
 * Per-call overhead, side by side: our session and adapter hooks, and the peers'
 * own ways to keep a history short, on identical histories of 200, 2,000 and
 * 10,000 messages (mixed text, tool calls, long tool outputs; ~250 tokens a
 * message). Writes `overhead.json` to the results folder.
 *
 *   node src/overhead/overhead.bench.ts [case-id-prefix …]   (from benchmarks/, after a build)
 *
 * `BENCH_TINY=1` runs every case on tiny histories; `BENCH_SIZES=200,2000`
 * picks sizes. A case that fails is recorded with its error and the run exits 1.
 *
 * Each case runs in a process of its own (this file again, with
 * `BENCH_OVERHEAD_CASE` naming it; all in one under `BENCH_TINY`), one after the other: a case measured in a
 * process that earlier cases filled with their histories, sessions and caches
 * read up to twice its own median (a peer's 10,000-message check 8.3 ms there,
 * 4.4 ms alone), so no case pays for another's heap.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isTiny, startResult } from '@compaction/bench-kit/bench-env';
import { syntheticHistory } from '@compaction/bench-kit/synthetic-history';
import { countMessageTokens, tiktokenCounter } from '@compaction/core';
import { aiSdkCases } from './ai-sdk-cases.ts';
import type { BenchCase, CaseCost, CaseOutcome } from './bench-case.ts';
import { coreCases } from './core-cases.ts';
import { langchainCases } from './langchain-cases.ts';
import { mastraCases } from './mastra-cases.ts';

const TINY = isTiny();
const SIZES = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map(Number)
  : TINY
    ? [12, 36]
    : [200, 2_000, 10_000];

/** [measured calls, warm-up calls] by expected cost and history size: about 10 minutes in all on 2 cores. */
function plan(cost: CaseCost, size: number): [number, number] {
  if (TINY) return [3, 1];
  const tier = size <= 500 ? 0 : size <= 5_000 ? 1 : 2;
  const table: Record<CaseCost, [number, number][]> = {
    fast: [
      [100, 10],
      [200, 20],
      [200, 20],
    ],
    // Enough calls at 10,000 messages for a stable median (3–10 read 7.5 ms one run, 2.97 ms the next).
    medium: [
      [50, 5],
      [40, 4],
      [40, 4],
    ],
    slow: [
      [20, 2],
      [15, 2],
      [15, 2],
    ],
    quadratic: [
      [20, 2],
      [5, 1],
      [2, 0],
    ],
    'one-off': [
      [10, 1],
      [5, 1],
      [3, 0],
    ],
  };
  return table[cost][tier]!;
}

/** Targets from the issue, checked by the renderer. */
const TARGETS = {
  coreMedianMs: 0.1,
  adapterMedianMs: 1,
  atMessages: 2_000,
  tokenLimiterRatio: 100,
  referenceMediansMs: {
    'mastra-token-limiter': { 2000: 58, 10000: 300 },
    'langchain-summarization-check': { 2000: 0.46, 10000: 2.5 },
    'langchain-trim-half': { 2000: 330 },
  },
};

/**
 * A full garbage collection, run before each case so that no case pays for the
 * garbage an earlier one left (a 10,000-message case after the others read up to
 * twice its median in one process). `--expose-gc` is set at run time so the
 * command stays a plain `node …`.
 */
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Set in a child process: the one case it runs, and the file it writes its figures to. */
const ONLY = process.env.BENCH_OVERHEAD_CASE;
const CHILD_OUT = process.env.BENCH_OVERHEAD_OUT;

const filters = process.argv.slice(2);
const cases: BenchCase[] = [...coreCases, ...aiSdkCases, ...langchainCases, ...mastraCases].filter((benchCase) =>
  ONLY !== undefined
    ? benchCase.id === ONLY
    : filters.length === 0 || filters.some((prefix) => benchCase.id.startsWith(prefix)),
);

type CaseResult = Omit<BenchCase, 'run'> & {
  results: Record<string, (CaseOutcome & { samplesPlanned: number }) | { error: string }>;
};

type History = { messages: number; tokens: number; tokensPerMessage: number };
/** What a child process hands back: its case's results and the histories it ran on. */
type ChildFigures = { results: CaseResult['results']; histories: History[]; failures: number };

const result = startResult('overhead', 'cd benchmarks && node src/overhead/overhead.bench.ts');
const results: CaseResult[] = cases.map(({ run: _run, ...described }) => ({ ...described, results: {} }));
let histories: History[] = [];
let failures = 0;

if (ONLY === undefined && !TINY) {
  // The parent: every case in a process of its own, in order.
  const self = fileURLToPath(import.meta.url);
  const dir = mkdtempSync(join(tmpdir(), 'compaction-overhead-'));
  try {
    for (const [index, benchCase] of cases.entries()) {
      const out = join(dir, `${benchCase.id}.json`);
      const child = spawnSync(process.execPath, [self], {
        stdio: 'inherit',
        env: { ...process.env, BENCH_OVERHEAD_CASE: benchCase.id, BENCH_OVERHEAD_OUT: out },
      });
      let figures: ChildFigures | undefined;
      try {
        figures = JSON.parse(readFileSync(out, 'utf8')) as ChildFigures;
      } catch {
        figures = undefined;
      }
      if (!figures) {
        failures += 1;
        const error = `its process ended with ${child.status ?? child.signal} before writing figures`;
        for (const size of SIZES) results[index]!.results[String(size)] = { error };
        console.error(`  ${benchCase.id} FAILED: ${error}`);
        continue;
      }
      results[index]!.results = figures.results;
      failures += figures.failures;
      if (figures.histories.length > histories.length) histories = figures.histories;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  await runCases();
}
if (CHILD_OUT === undefined) {
  const path = result.finish({
    sizes: histories.map((entry) => entry.messages),
    histories,
    targets: TARGETS,
    cases: results,
  });
  console.log(`\nwrote ${path}`);
} else {
  writeFileSync(CHILD_OUT, JSON.stringify({ results: results[0]?.results ?? {}, histories, failures }));
}
if (failures > 0) {
  console.error(`${failures} case(s) failed`);
  process.exitCode = 1;
}

/** This process's cases (one, in a child) at every size. */
async function runCases(): Promise<void> {
  const counter = tiktokenCounter();
  for (const size of SIZES) {
    const history = syntheticHistory(size);
    const tokens = history.reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
    histories.push({ messages: history.length, tokens, tokensPerMessage: Math.round(tokens / history.length) });
    console.log(`\n${history.length} messages, ${tokens} tokens`);
    for (const [index, benchCase] of cases.entries()) {
      const [samples, warmup] = plan(benchCase.cost, size);
      collectGarbage();
      const started = performance.now();
      try {
        const outcome = await benchCase.run({ history, tokens, samples, warmup });
        results[index]!.results[String(history.length)] = { ...outcome, samplesPlanned: samples };
        const { median, p90 } = outcome.stats;
        console.log(
          `  ${benchCase.id.padEnd(36)} median ${fmt(median)} ms  p90 ${fmt(p90)} ms  (${outcome.stats.samples} calls, ${((performance.now() - started) / 1000).toFixed(1)} s)`,
        );
      } catch (error) {
        failures += 1;
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        results[index]!.results[String(history.length)] = { error: message.split('\n').slice(0, 3).join(' ') };
        console.error(`  ${benchCase.id} FAILED: ${message}`);
      }
    }
  }
}

function fmt(ms: number): string {
  return ms < 1 ? ms.toFixed(4) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0);
}
