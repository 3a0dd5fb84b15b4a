/**
 * Many conversations in one process: each adapter serves N conversations of
 * 200 messages round-robin (every call one new ~250-token message, the
 * provider's usage recorded), for N = 100, 1,000 and 10,000 — the per-call
 * median once every conversation was served, and the heap the adapter holds
 * for all of them (the framework's histories excluded). Each measurement runs
 * in a process of its own (`scale-run.ts`). Writes `scale.json`.
 *
 *   node src/scale/scale.bench.ts [adapter …]   (from benchmarks/)
 *
 * `BENCH_TINY=1` runs 3 and 12 conversations of 12 messages; `BENCH_SCALE=100,1000`
 * picks the conversation counts.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isTiny, startResult } from '@compaction/bench-kit/bench-env';
import type { ScaleRun } from './scale-run.ts';

const TINY = isTiny();
const COUNTS = process.env.BENCH_SCALE
  ? process.env.BENCH_SCALE.split(',').map(Number)
  : TINY
    ? [3, 12]
    : [100, 1_000, 10_000];
const MESSAGES = TINY ? 12 : 200;
/** Timed calls per measurement after the first round: enough for a stable median, at most 3,000. */
const callsFor = (conversations: number) => (TINY ? 6 : Math.min(3_000, Math.max(1_000, conversations)));
const ADAPTERS = ['ai-sdk', 'langchain', 'mastra'];

/** Targets from issue 16, checked by the renderer. */
const TARGETS = { medianMs: 1, heapMB: 200, atConversations: 10_000, cliffRatio: 1.5 };

const picked = process.argv.slice(2);
const adapters = picked.length > 0 ? ADAPTERS.filter((name) => picked.includes(name)) : ADAPTERS;
const runner = fileURLToPath(new URL('./scale-run.ts', import.meta.url));
const result = startResult('scale', 'cd benchmarks && node src/scale/scale.bench.ts');
const runs: (ScaleRun | { adapter: string; conversations: number; error: string })[] = [];
let failures = 0;

for (const adapter of adapters) {
  for (const conversations of COUNTS) {
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--max-old-space-size=16384',
        runner,
        adapter,
        String(conversations),
        String(MESSAGES),
        String(callsFor(conversations)),
      ],
      { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
    );
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{')) {
      failures += 1;
      const error = `${child.stderr}`.trim().split('\n').slice(0, 4).join(' ') || `exit ${child.status}`;
      runs.push({ adapter, conversations, error });
      console.error(`  ${adapter} × ${conversations} FAILED: ${error}`);
      continue;
    }
    const run = JSON.parse(line) as ScaleRun;
    runs.push(run);
    console.log(
      `  ${adapter.padEnd(10)} ${String(conversations).padStart(6)} conversations  median ${run.median.toFixed(3)} ms  p90 ${run.p90.toFixed(3)} ms  first ${run.firstCallMedian.toFixed(3)} ms  heap ${run.heapMB} MB (histories ${run.historiesMB} MB)  (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
}

const path = result.finish({ messages: MESSAGES, counts: COUNTS, targets: TARGETS, runs });
console.log(`\nwrote ${path}`);
if (failures > 0) process.exitCode = 1;
