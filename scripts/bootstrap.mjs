#!/usr/bin/env node
// Brings in everything the repository needs, then runs one task.
//
//   node scripts/bootstrap.mjs test   — lint, typecheck, unit tests, package checks
//   node scripts/bootstrap.mjs demo   — builds the packages and runs the demo
//   node scripts/bootstrap.mjs web    — builds the packages and the web app, and serves it
//   node scripts/bootstrap.mjs <pnpm args…>
//
// Runs on any Node ≥ 18 with npm. When the machine's Node is older than the
// project needs, a pinned Node is installed from the npm registry (the `node`
// package) into `.tools/`; pnpm comes from the npm registry too. Dependencies are
// installed from the committed lockfile, frozen, and only when something changed.
// Nothing is fetched from anywhere but the npm registry.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const toolsDir = join(root, '.tools');
const toolsBin = join(toolsDir, 'node_modules', '.bin');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Node used when the machine's own is older than `MIN_NODE_MAJOR`. */
const PINNED_NODE = '24.21.0';
const MIN_NODE_MAJOR = 22;
const PNPM_VERSION = rootManifest.packageManager.replace(/^pnpm@/, '');

function log(message) {
  process.stderr.write(`[bootstrap] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) {
    log(`could not start ${command}: ${result.error.message}`);
    process.exit(1);
  }
  return result.status ?? 1;
}

function capture(command, args, env) {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function majorOf(version) {
  return Number.parseInt(String(version).replace(/^v/, '').split('.')[0], 10);
}

/** Installs the pinned Node and pnpm into `.tools/` when they are missing or stale. */
function ensureTools(needNode) {
  // Keep a pinned Node already there: running this script with `.tools`' own Node on PATH
  // must not reinstall the folder without it (that would remove the Node it runs on).
  const withNode = needNode || existsSync(join(toolsBin, 'node'));
  const wanted = { pnpm: PNPM_VERSION, ...(withNode ? { node: PINNED_NODE } : {}) };
  const stampFile = join(toolsDir, 'stamp.json');
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
  const binsPresent = existsSync(join(toolsBin, 'pnpm')) && (!needNode || existsSync(join(toolsBin, 'node')));
  if (stamp === JSON.stringify(wanted) && binsPresent) return;

  mkdirSync(toolsDir, { recursive: true });
  // The tools folder is its own tiny npm project so that its install scripts
  // (the `node` package fetches its platform binary package from the registry)
  // are explicitly allowed.
  writeFileSync(
    join(toolsDir, 'package.json'),
    `${JSON.stringify({ name: 'compaction-tools', private: true, allowScripts: { node: true, pnpm: true } }, null, 2)}\n`,
  );
  const specs = Object.entries(wanted).map(([name, version]) => `${name}@${version}`);
  log(`installing ${specs.join(', ')} into .tools/ from the npm registry`);
  const status = run('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', ...specs], {
    cwd: toolsDir,
  });
  if (status !== 0) {
    log('installing the toolchain failed; see the npm output above');
    process.exit(status);
  }
  writeFileSync(stampFile, JSON.stringify(wanted));
}

/** A hash of everything that decides what `pnpm install` would do. */
function installFingerprint() {
  const hash = createHash('sha256');
  const files = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json'];
  for (const group of ['packages', 'apps']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) files.push(join(group, name, 'package.json'));
  }
  for (const file of files) {
    const path = join(root, file);
    hash.update(file);
    hash.update(existsSync(path) ? readFileSync(path) : '');
  }
  hash.update(process.platform + process.arch + PNPM_VERSION);
  return hash.digest('hex');
}

function main() {
  const [task = 'test', ...rest] = process.argv.slice(2);
  const needNode = majorOf(process.version) < MIN_NODE_MAJOR;
  ensureTools(needNode);

  const env = { ...process.env, PATH: `${toolsBin}${delimiter}${process.env.PATH ?? ''}` };
  // Our own tooling decides when to install; keep pnpm from prompting or
  // touching the lockfile.
  env.CI = env.CI ?? '';
  env.npm_config_frozen_lockfile = 'true';
  const nodeVersion = capture('node', ['--version'], env);
  if (!nodeVersion || majorOf(nodeVersion) < MIN_NODE_MAJOR) {
    log(`Node ${nodeVersion ?? '(none)'} on PATH is older than ${MIN_NODE_MAJOR}; delete .tools/ and run again`);
    process.exit(1);
  }

  const stampFile = join(root, 'node_modules', '.bootstrap-install');
  const fingerprint = installFingerprint();
  const installed = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
  if (installed !== fingerprint) {
    log(`installing dependencies from the lockfile (Node ${nodeVersion}, pnpm ${PNPM_VERSION})`);
    const status = run('pnpm', ['install', '--frozen-lockfile'], { env });
    if (status !== 0) process.exit(status);
    writeFileSync(stampFile, fingerprint);
  }

  const scripts = { test: 'test:all', demo: 'demo:run', web: 'web:run' };
  const args = task in scripts ? ['run', scripts[task], ...rest] : [task, ...rest];
  process.exit(run('pnpm', args, { env }));
}

main();
