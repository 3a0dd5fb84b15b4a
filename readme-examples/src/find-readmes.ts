import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Every README whose examples are tests, relative to the repository root: the
 * root `README.md`, `packages/*`/`apps/*` READMEs and every `docs/**` markdown
 * page. A new package or doc page is picked up without a change here.
 */
export function findReadmes(root: string = REPO_ROOT): string[] {
  const found = ['README.md'];
  for (const folder of ['packages', 'apps']) {
    const dir = join(root, folder);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(dir, entry.name, 'README.md'))) {
        found.push(`${folder}/${entry.name}/README.md`);
      }
    }
  }
  const docs = join(root, 'docs');
  if (existsSync(docs)) {
    for (const entry of readdirSync(docs, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith('.md')) found.push(relative(root, join(entry.parentPath, entry.name)));
    }
  }
  return found.filter((path) => existsSync(join(root, path))).sort();
}
