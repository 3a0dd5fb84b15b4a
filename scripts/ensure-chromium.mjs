#!/usr/bin/env node
// Makes sure Debian's Chromium is at /usr/bin/chromium for the demo's browser test
// (apps/demo/test/report.browser.test.ts). When it is missing and we are root with
// apt-get, installs the `chromium` package; otherwise says what to do. Exits 0 when
// Chromium is there afterwards, 1 with one `ensure-chromium: …` line otherwise.
// Idempotent: when Chromium is already installed it only checks the file.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const chromium = '/usr/bin/chromium';
const aptGet = '/usr/bin/apt-get';

/** Whether `path` is there and executable. */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Ends with one line on stderr and exit code 1. */
function fail(message) {
  process.stderr.write(`ensure-chromium: ${message}\n`);
  process.exit(1);
}

/** Runs one command with its output shown, failing on a non-zero exit. */
function run(command, args) {
  process.stdout.write(`ensure-chromium: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args[0]} exited with ${result.status ?? result.signal}`);
}

if (isExecutable(chromium)) process.exit(0);

if (process.platform !== 'linux' || !isExecutable(aptGet)) {
  fail(
    `${chromium} is missing and there is no apt-get here; install Debian's chromium package (or a Chromium at ${chromium})`,
  );
}
if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
  fail(`${chromium} is missing; run as root (or: sudo apt-get install -y --no-install-recommends chromium)`);
}

process.stdout.write(`ensure-chromium: ${chromium} is missing; installing Debian's chromium package\n`);
run(aptGet, ['update']);
run(aptGet, ['install', '-y', '--no-install-recommends', 'chromium']);

if (!isExecutable(chromium)) fail(`apt-get installed chromium but ${chromium} is still missing`);
const version = spawnSync(chromium, ['--version'], { encoding: 'utf8' });
process.stdout.write(`ensure-chromium: installed ${(version.stdout || chromium).trim()}\n`);
