import { dataLine } from '../framing/quote-tool-text.js';
import type { FileOperations } from '../types.js';

/**
 * The file lists as the tag blocks every summary ends with, one path a line:
 * `<read-files>\n…\n</read-files>\n<modified-files>\n…\n</modified-files>`.
 * Both blocks are always present, empty when there is nothing to list. A path is written on
 * one line with `<` `>` replaced by `‹` `›`, so no path (they come from tool inputs) can close a
 * block or start a line of its own.
 *
 * @example
 * ```ts
 * renderFileOperations({ read: ['README.md'], modified: ['src/app.ts'] });
 * // '<read-files>\nREADME.md\n</read-files>\n<modified-files>\nsrc/app.ts\n</modified-files>'
 * ```
 */
export function renderFileOperations(fileOps: FileOperations): string {
  return [block('read-files', fileOps.read), block('modified-files', fileOps.modified)].join('\n');
}

function block(tag: string, paths: readonly string[]): string {
  return [`<${tag}>`, ...paths.map(safePath), `</${tag}>`].join('\n');
}

function safePath(path: string): string {
  return dataLine(path).replace(/</g, '‹').replace(/>/g, '›');
}
