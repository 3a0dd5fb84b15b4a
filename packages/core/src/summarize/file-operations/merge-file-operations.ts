import type { FileOperations } from '../types.js';
import { normalizeFileOperations } from './normalize-file-operations.js';

/**
 * Merges the file operations of an earlier compaction with those of the current span:
 * deduplicated and sorted; a file read earlier and modified now (or the other way round)
 * is listed as modified only. Either side may be missing.
 *
 * @example
 * ```ts
 * mergeFileOperations({ read: ['a.ts'], modified: [] }, { read: [], modified: ['a.ts'] });
 * // { read: [], modified: ['a.ts'] }
 * ```
 */
export function mergeFileOperations(
  previous: FileOperations | undefined,
  current: FileOperations | undefined,
): FileOperations {
  return normalizeFileOperations(
    [...(previous?.read ?? []), ...(current?.read ?? [])],
    [...(previous?.modified ?? []), ...(current?.modified ?? [])],
  );
}
