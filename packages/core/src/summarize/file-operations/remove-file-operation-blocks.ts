import { FILE_OPERATION_BLOCK } from './parse-file-operations.js';

/**
 * `text` without its `<read-files>` / `<modified-files>` blocks (an unclosed block runs
 * to the end of the text), trailing whitespace trimmed.
 */
export function removeFileOperationBlocks(text: string): string {
  return text
    .replace(FILE_OPERATION_BLOCK, '')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}
