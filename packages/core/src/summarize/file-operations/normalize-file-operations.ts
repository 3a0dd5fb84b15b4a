import type { FileOperations } from '../types.js';

/**
 * Sorts, deduplicates and separates file lists: a file that is both read and modified is
 * listed under `modified` only. Empty and non-string entries are dropped.
 */
export function normalizeFileOperations(read: Iterable<unknown>, modified: Iterable<unknown>): FileOperations {
  const modifiedSet = new Set(clean(modified));
  const readSet = new Set(clean(read).filter((path) => !modifiedSet.has(path)));
  return { read: [...readSet].sort(), modified: [...modifiedSet].sort() };
}

function clean(paths: Iterable<unknown>): string[] {
  const result: string[] = [];
  for (const path of paths) {
    if (typeof path === 'string' && path.trim()) result.push(path.trim());
  }
  return result;
}
