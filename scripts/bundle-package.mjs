#!/usr/bin/env node
// Bundles a package's `dist/` after `tsc` has emitted it: each entry of the
// `exports` map becomes one ES module (shared code in chunks), its dependencies,
// peers and Node built-ins left as imports; the per-file `.js` that tsc wrote are
// removed, its `.d.ts` stay. Node's module loader costs ~0.1 ms and ~0.1 MB per
// file, so core's ~120 files cost more at import than its code (measured by the
// import-cost benchmark). It also copies the repository's LICENSE into the
// package folder. Run from the package folder: `node ../../scripts/bundle-package.mjs`.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { rolldown } from 'rolldown';

const packageDir = process.cwd();
const dist = join(packageDir, 'dist');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

/** `./dist/x.js` of every `default` (or `import`) condition in the exports map, by entry name. */
const inputs = {};
for (const target of Object.values(manifest.exports ?? {})) {
  const file = typeof target === 'string' ? target : (target.default ?? target.import);
  if (typeof file !== 'string' || !file.startsWith('./dist/') || !file.endsWith('.js')) continue;
  inputs[file.slice('./dist/'.length, -'.js'.length)] = join(dist, file.slice('./dist/'.length));
}
if (Object.keys(inputs).length === 0) throw new Error(`${manifest.name}: no ./dist/*.js entry in exports`);

const externalNames = [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
  ...Object.keys(manifest.optionalDependencies ?? {}),
];
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const isExternal = (id) =>
  builtins.has(id) || id.startsWith('node:') || externalNames.some((name) => id === name || id.startsWith(`${name}/`));

const out = join(packageDir, 'dist.bundle');
rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({ input: inputs, platform: 'node', external: isExternal, treeshake: true });
// No comments: the JSDoc is in the .d.ts, and a third of the bytes Node would parse at import are comments.
await bundle.write({
  dir: out,
  format: 'esm',
  comments: false,
  entryFileNames: '[name].js',
  chunkFileNames: '_chunks/[name]-[hash].js',
});
await bundle.close();

// Replace tsc's JavaScript with the bundle; keep its declarations.
for (const file of listFiles(dist)) if (file.endsWith('.js')) rmSync(file);
for (const file of listFiles(out)) {
  const target = join(dist, relative(out, file));
  mkdirSync(dirname(target), { recursive: true });
  renameSync(file, target);
}
rmSync(out, { recursive: true, force: true });
// The repository's license goes into every package (npm packs a LICENSE beside package.json); not tracked there.
copyFileSync(join(packageDir, '..', '..', 'LICENSE'), join(packageDir, 'LICENSE'));
process.stdout.write(`${manifest.name}: bundled ${Object.keys(inputs).join(', ')}\n`);

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
