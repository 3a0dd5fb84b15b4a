import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `<repo>/benchmarks/`. */
export const BENCHMARKS_DIR = fileURLToPath(new URL('../../../benchmarks/', import.meta.url));

/**
 * Whether this is a smoke run (`BENCH_TINY=1`): every benchmark on a tiny
 * input, results to a temporary folder, docs/benchmarks.md left alone.
 */
export function isTiny(): boolean {
  const value = process.env.BENCH_TINY;
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * Where results go: `BENCH_RESULTS_DIR` when set, else `benchmarks/results/`
 * (git-ignored), or `<tmp>/compaction-bench-tiny/` in a tiny run.
 */
export function resultsDir(): string {
  const dir =
    process.env.BENCH_RESULTS_DIR ??
    (isTiny() ? join(tmpdir(), 'compaction-bench-tiny') : join(BENCHMARKS_DIR, 'results'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The machine and runtime a result was measured on. */
export type BenchEnvironment = {
  cpu: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  os: string;
  node: string;
  /** 1, 5 and 15 minute load averages when the benchmark started: other work on the machine skews figures. */
  loadAverage: number[];
};

/** The machine and runtime of this process. */
export function benchEnvironment(): BenchEnvironment {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    freeMemoryGiB: Math.round(freemem() / 2 ** 30),
    os: `${type()} ${release()} (${process.arch})`,
    node: process.version,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

/** Every package the benchmarks measure, by the name they are installed under. */
export const MEASURED_PACKAGES = [
  '@compaction/core',
  '@compaction/ai-sdk',
  '@compaction/langchain',
  '@compaction/mastra',
  'ai',
  '@ai-sdk/provider',
  'langchain',
  '@langchain/core',
  '@langchain/langgraph',
  '@mastra/core',
  'tiktoken',
  'js-tiktoken',
  'gpt-tokenizer',
  'tinybench',
] as const;

/** Installed versions, read from each package.json in `benchmarks/node_modules`. */
export function packageVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of MEASURED_PACKAGES) {
    try {
      const manifest = JSON.parse(readFileSync(join(BENCHMARKS_DIR, 'node_modules', name, 'package.json'), 'utf8'));
      versions[name] = String(manifest.version);
    } catch {
      versions[name] = 'not installed';
    }
  }
  return versions;
}

/** What every result file holds besides its own figures. */
export type ResultHeader = {
  /** The file's name without `.json`. */
  name: string;
  /** How to re-run it, from the repository root. */
  command: string;
  tiny: boolean;
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  environment: BenchEnvironment;
  versions: Record<string, string>;
};

/**
 * Starts a result: call at the beginning of a benchmark, then `finish(figures)`
 * at the end writes `<resultsDir>/<name>.json` and returns its path.
 */
export function startResult(name: string, command: string): { finish(figures: object): string } {
  const started = new Date();
  const environment = benchEnvironment();
  return {
    finish(figures) {
      const finished = new Date();
      const header: ResultHeader = {
        name,
        command,
        tiny: isTiny(),
        startedAt: started.toISOString(),
        finishedAt: finished.toISOString(),
        durationSeconds: Math.round((finished.getTime() - started.getTime()) / 100) / 10,
        environment,
        versions: packageVersions(),
      };
      const path = join(resultsDir(), `${name}.json`);
      writeFileSync(path, `${JSON.stringify({ ...header, ...figures }, null, 2)}\n`);
      return path;
    },
  };
}
