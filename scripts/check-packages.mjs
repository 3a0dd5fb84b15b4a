#!/usr/bin/env node
// Checks every published package the way a consumer sees it: `publint --strict`
// over the package folder and `attw` over the tarball `pnpm pack` produces.
// Needs a build first (`turbo run build`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const packagesDir = join(root, 'packages');
let failures = 0;

function step(label, command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.status !== 0) {
    failures += 1;
    process.stdout.write(`✗ ${label}\n${output}\n`);
    return undefined;
  }
  process.stdout.write(`✓ ${label}\n`);
  return output;
}

for (const name of readdirSync(packagesDir).sort()) {
  const dir = join(packagesDir, name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.private) continue;
  step(`${manifest.name}: publint --strict`, 'publint', ['--strict'], dir);
  const packDir = mkdtempSync(join(tmpdir(), 'compaction-pack-'));
  try {
    const packed = step(`${manifest.name}: pnpm pack`, 'pnpm', ['pack', '--pack-destination', packDir], dir);
    if (packed === undefined) continue;
    const tarball = readdirSync(packDir).find((file) => file.endsWith('.tgz'));
    step(`${manifest.name}: attw (esm-only)`, 'attw', [join(packDir, tarball), '--profile', 'esm-only'], dir);
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}

if (failures > 0) {
  process.stdout.write(`${failures} package check(s) failed\n`);
  process.exit(1);
}
