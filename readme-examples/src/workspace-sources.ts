import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './find-readmes.js';

/**
 * Every import path of the workspace's published packages (`@compaction/core`,
 * `@compaction/ai-sdk/ui`, …) mapped to its TypeScript source, read from each
 * package's `exports` map (`./dist/x.js` or `./dist/x/index.js` → `src/x.ts` or
 * `src/x/index.ts`). Examples are checked and run against the sources, no build needed.
 */
export function workspaceSources(root: string = REPO_ROOT): Record<string, string> {
  const sources: Record<string, string> = {};
  const packages = join(root, 'packages');
  for (const entry of readdirSync(packages, { withFileTypes: true })) {
    const manifestPath = join(packages, entry.name, 'package.json');
    if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string;
      exports?: Record<string, string | { default?: string; import?: string }>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const file = typeof target === 'string' ? target : (target.default ?? target.import);
      if (!file?.startsWith('./dist/') || !file.endsWith('.js')) continue;
      const source = join(packages, entry.name, 'src', `${file.slice('./dist/'.length, -'.js'.length)}.ts`);
      if (!existsSync(source)) continue;
      sources[subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`] = source;
    }
  }
  return sources;
}
