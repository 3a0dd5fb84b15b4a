import { removeFileOperationBlocks } from '../file-operations/remove-file-operation-blocks.js';
import { renderFileOperations } from '../file-operations/render-file-operations.js';
import { appendLastRequest, splitLastRequest } from '../framing/split-last-request.js';
import type { SummarizeRequest } from '../types.js';

/**
 * The stored text of a summary from its body. A `history` summary gets the authoritative
 * file lists of `request.fileOps` (any `<read-files>` / `<modified-files>` blocks in the body
 * are replaced, so paths are never lost) and then `Last request from user was: …` with
 * `request.lastUserRequest` verbatim. A `turn-prefix` summary is the body alone (the history
 * summary carries the files and the last request). A blank body stays blank.
 */
export function composeSummary(
  body: string,
  request: Pick<SummarizeRequest, 'kind' | 'fileOps' | 'lastUserRequest'>,
): string {
  const content = removeFileOperationBlocks(splitLastRequest(body).body).trim();
  if (!content || request.kind === 'turn-prefix') return content;
  return appendLastRequest(`${content}\n\n${renderFileOperations(request.fileOps)}`, request.lastUserRequest);
}

/**
 * The summary inside a model's answer: the content of a `<summary>` block when there is
 * one, without an `<analysis>` scratchpad.
 */
export function extractModelSummary(text: string): string {
  const summary = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(text);
  if (summary?.[1]?.trim()) return summary[1].trim();
  return text.replace(/<analysis>[\s\S]*?<\/analysis>/g, '').trim();
}
