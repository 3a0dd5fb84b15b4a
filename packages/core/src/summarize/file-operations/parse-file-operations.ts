import { splitLastRequest } from '../framing/split-last-request.js';
import type { FileOperations } from '../types.js';
import { expandListedPath } from './condense-file-operations.js';
import { normalizeFileOperations } from './normalize-file-operations.js';

/**
 * A `<read-files>` or `<modified-files>` block whose opening tag starts a line; an unclosed
 * one runs to the end of the text.
 */
export const FILE_OPERATION_BLOCK = /^[ \t]*<(read-files|modified-files)>([\s\S]*?)(?:<\/\1>|(?![\s\S]))/gm;

/**
 * Reads the `<read-files>` and `<modified-files>` blocks back out of a summary (the
 * inverse of {@link renderFileOperations}); several blocks of a kind are merged.
 * Lines that are empty or look like a placeholder (`[files that were read]`, `- (none)`)
 * are skipped; a condensed `folder/{a,b}` line is expanded, a `folder/ (N files)` line skipped. The carried `Last request from user was: …` tail (the user's own words) is
 * not read.
 */
export function parseFileOperations(summary: string): FileOperations {
  const read: string[] = [];
  const modified: string[] = [];
  for (const match of splitLastRequest(summary).body.matchAll(FILE_OPERATION_BLOCK)) {
    const target = match[1] === 'read-files' ? read : modified;
    for (const line of (match[2] ?? '').split('\n')) {
      const path = line.trim().replace(/^[-*]\s+/, '');
      if (path && !/^[[(].*[\])]$/.test(path)) target.push(...expandListedPath(path));
    }
  }
  return normalizeFileOperations(read, modified);
}
