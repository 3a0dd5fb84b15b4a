import type { FileOperations } from '../types.js';

/**
 * How file paths are listed: `full` one path a line; `grouped` one folder a line with its
 * file names in braces (`src/app/{a.ts,b.ts}`, every name kept; {@link parseFileOperations}
 * expands it back); `counted` one folder a line with how many files (`src/app/ (12 files)`);
 * `omitted` one line with how many files there are (`(12 files: not listed at this budget)`).
 */
export type FileListing = 'full' | 'grouped' | 'counted' | 'omitted';

/** `fileOps` listed as `listing` asks, in the same two lists. */
export function condenseFileOperations(fileOps: FileOperations, listing: FileListing): FileOperations {
  if (listing === 'full') return fileOps;
  if (listing === 'omitted') return { read: omitted(fileOps.read), modified: omitted(fileOps.modified) };
  return { read: condense(fileOps.read, listing), modified: condense(fileOps.modified, listing) };
}

function omitted(paths: readonly string[]): string[] {
  return paths.length === 0 ? [] : [`(${paths.length} file${paths.length > 1 ? 's' : ''}: not listed at this budget)`];
}

function condense(paths: readonly string[], listing: 'grouped' | 'counted'): string[] {
  const folders = new Map<string, string[]>();
  for (const path of paths) {
    const at = path.lastIndexOf('/') + 1;
    const folder = path.slice(0, at);
    const names = folders.get(folder);
    if (names) names.push(path.slice(at));
    else folders.set(folder, [path.slice(at)]);
  }
  return [...folders].map(([folder, names]) => {
    if (names.length === 1) return `${folder}${names[0]}`;
    if (listing === 'grouped') return `${folder}{${names.join(',')}}`;
    return `${folder || './'} (${names.length} files)`;
  });
}

/** The paths one listed line stands for: a `folder/{a,b}` group expanded; a counted folder stands for none it can name. */
export function expandListedPath(line: string): string[] {
  if (/ \(\d+ files\)$/.test(line)) return [];
  const group = /^(.*\/)?\{([^{}]*)\}$/.exec(line);
  if (!group) return [line];
  return (group[2] ?? '')
    .split(',')
    .filter(Boolean)
    .map((name) => `${group[1] ?? ''}${name}`);
}
