#!/usr/bin/env node
// Checks every published package the way a consumer sees it: `publint --strict`
// over the package folder, `attw` over the tarball `pnpm pack` produces, and then
// the tarballs installed side by side in a blank folder, loaded there with both
// `require()` and `import()` by the Node running this script (the packages
// support Node ≥ 22.12, which can `require()` an ES module).
// Needs a build first (`turbo run build`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const packagesDir = join(root, 'packages');
let failures = 0;

function step(label, command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
  if (result.status !== 0) {
    failures += 1;
    process.stdout.write(`✗ ${label}\n${output}\n`);
    return undefined;
  }
  process.stdout.write(`✓ ${label}\n`);
  return output;
}

const work = mkdtempSync(join(tmpdir(), 'compaction-pack-'));
/** @type {{ name: string, dir: string, tarball: string, manifest: Record<string, any> }[]} */
const packed = [];
try {
  for (const name of readdirSync(packagesDir).sort()) {
    const dir = join(packagesDir, name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (manifest.private) continue;
    step(`${manifest.name}: publint --strict`, 'publint', ['--strict'], dir);
    const packDir = join(work, 'tarballs', name);
    mkdirSync(packDir, { recursive: true });
    if (step(`${manifest.name}: pnpm pack`, 'pnpm', ['pack', '--pack-destination', packDir], dir) === undefined)
      continue;
    const tarball = join(
      packDir,
      readdirSync(packDir).find((file) => file.endsWith('.tgz')),
    );
    step(`${manifest.name}: attw (esm-only)`, 'attw', [tarball, '--profile', 'esm-only'], dir);
    const files = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n');
    const maps = files.filter((file) => file.endsWith('.map'));
    if (maps.length > 0) {
      // A map points at sources (../../src/*.ts) that the tarball does not hold.
      failures += 1;
      process.stdout.write(`✗ ${manifest.name}: the tarball holds source maps without sources (${maps[0]}, …)\n`);
    }
    if (!files.includes('package/LICENSE')) {
      // The manifests say MIT: the license text must travel with the code.
      failures += 1;
      process.stdout.write(
        `✗ ${manifest.name}: the tarball holds no LICENSE (its manifest says ${manifest.license})\n`,
      );
    }
    packed.push({ name: manifest.name, dir, tarball, manifest: readPackedManifest(tarball) });
  }
  checkConsumer(packed);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The package.json inside a tarball: what a consumer installs (`workspace:` ranges already rewritten). */
function readPackedManifest(tarball) {
  const result = spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' });
  return JSON.parse(result.stdout);
}

/**
 * Installs the tarballs into `consumer/node_modules` (their own dependencies and
 * peers linked from the workspace install), then, from a script in that folder,
 * `require()`s and `import()`s each package and compares what they export.
 */
function checkConsumer(packages) {
  const consumer = join(work, 'consumer');
  const modules = join(consumer, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const { name, dir, tarball, manifest } of packages) {
    const target = join(modules, name);
    mkdirSync(target, { recursive: true });
    spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@compaction/')) {
        const local = packages.find((other) => other.name === dependency);
        if (!local || !satisfiesCaret(range, local.manifest.version)) {
          failures += 1;
          process.stdout.write(
            `✗ ${name}: depends on ${dependency}@${range}, which the packed version does not satisfy\n`,
          );
        }
        continue;
      }
      link(modules, dependency, dir);
    }
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) link(modules, peer, dir);
  }
  for (const { name } of packages) {
    const script = [
      `const required = require(${JSON.stringify(name)});`,
      `import(${JSON.stringify(name)}).then((imported) => {`,
      '  const a = Object.keys(required).sort().join();',
      '  const b = Object.keys(imported).filter((key) => key !== "default" && key !== "module.exports").sort().join();',
      '  if (a.length === 0 || a !== b) { console.error("require() gave [" + a + "], import() gave [" + b + "]"); process.exit(1); }',
      // Core's tokenizers load on the first count, from the package's own dependencies.
      name === '@compaction/core'
        ? '  for (const counter of [required.gptTokenizerCounter(), imported.tiktokenCounter()]) if (counter.countText("hello world") !== 2) { console.error(counter.name + " miscounted"); process.exit(1); }'
        : '',
      '});',
    ].join('\n');
    step(
      `${name}: require() and import() of the tarball (Node ${process.versions.node})`,
      process.execPath,
      ['-e', script],
      consumer,
    );
  }
}

/** Links `consumer/node_modules/<dependency>` to the copy the workspace installed for the package. */
function link(modules, dependency, packageDir) {
  const target = join(modules, dependency);
  try {
    const source = realpathSync(join(packageDir, 'node_modules', dependency));
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(source, target, 'dir');
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
}

/** `^x.y.z` (or an exact version) satisfied by `version`: same major, not lower. */
function satisfiesCaret(range, version) {
  const match = /^\^?(\d+)\.(\d+)\.(\d+)$/.exec(range);
  if (!match) return false;
  const [major, minor, patch] = version.split('.').map(Number);
  const wanted = match.slice(1).map(Number);
  if (!range.startsWith('^')) return wanted.join('.') === version;
  if (major !== wanted[0]) return false;
  if (major === 0 && minor !== wanted[1]) return false;
  return minor > wanted[1] || (minor === wanted[1] && patch >= wanted[2]);
}

if (failures > 0) {
  process.stdout.write(`${failures} package check(s) failed\n`);
  process.exit(1);
}
