import { type Stats, statSync } from 'node:fs';

/**
 * What is at `path` now, for a store factory's checks: its stats, `'missing'`
 * when nothing is there yet (`ENOENT`), `'parent-not-folder'` when a parent on
 * the path is a file (`ENOTDIR`), or `'unknown'` when it cannot be inspected
 * now (no permission, …): that case is left to the first use, which reports it.
 */
export function statPath(path: string): Stats | 'missing' | 'parent-not-folder' | 'unknown' {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ENOTDIR') return 'parent-not-folder';
    return 'unknown';
  }
}
