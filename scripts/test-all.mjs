#!/usr/bin/env node
// The whole test suite, in the order a reviewer would want failures reported:
// lint and format, typecheck, unit tests, then build and package checks.
// Ends with one plain line `tests: N passed, N failed` and exits non-zero when
// any step failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const resultsFile = join(root, '.vitest-results.json');

const steps = [
  // The report test opens the demo's HTML in Debian's Chromium; install it when missing.
  ['browser', 'node', ['scripts/ensure-chromium.mjs']],
  // The store tests run against a real PostgreSQL and Redis on loopback; install and start them when missing.
  ['postgres', 'node', ['scripts/ensure-postgres.mjs']],
  ['redis', 'node', ['scripts/ensure-redis.mjs']],
  ['lint', 'biome', ['ci', '--colors=off', '.']],
  ['typecheck', 'turbo', ['run', 'typecheck', '--output-logs=errors-only']],
  ['unit tests', 'vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`]],
  ['build', 'turbo', ['run', 'build', '--output-logs=errors-only']],
  ['package checks', 'node', ['scripts/check-packages.mjs']],
  // Benchmarks are never pass/fail on their figures; this only checks the command still runs.
  ['bench smoke (BENCH_TINY=1)', 'turbo', ['run', 'bench', '--output-logs=errors-only'], { BENCH_TINY: '1' }],
];

rmSync(resultsFile, { force: true });
const failed = [];
for (const [name, command, args, env] of steps) {
  process.stdout.write(`\n▶ ${name}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: false,
    env: { ...process.env, ...env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failed.push(name);
    process.stdout.write(`✗ ${name} failed (${seconds}s)\n`);
  } else {
    process.stdout.write(`✓ ${name} (${seconds}s)\n`);
  }
}

let passed = 0;
let failedTests = 0;
let skipped = 0;
if (existsSync(resultsFile)) {
  const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failedTests = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (failed.length > 0) process.stdout.write(`\nfailed steps: ${failed.join(', ')}\n`);
if (passed === 0 && failed.length === 0) {
  process.stdout.write('no test ran\n');
  failed.push('no tests');
}
process.stdout.write(`tests: ${passed} passed, ${failedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed.length > 0 ? 1 : 0);
