import { removeFileOperationBlocks } from '../file-operations/remove-file-operation-blocks.js';
import { splitLastRequest } from '../framing/split-last-request.js';
import type { SummarizeRequest, SummaryDraft } from '../types.js';

/**
 * The draft of a model's answer: the summary it wrote ({@link extractModelSummary}), kept as
 * written, as the part's text. The prompt shows the model the whole format, so it may write
 * `<read-files>` / `<modified-files>` blocks and a `Last request from user was: …` line of its
 * own: those are dropped, never read — the state keeps the file lists (`request.fileOps`) and
 * the last request (`request.lastUserRequest`, on a `history` draft) as fields and renders them.
 */
export function modelDraft(answer: string, request: Pick<SummarizeRequest, 'kind' | 'lastUserRequest'>): SummaryDraft {
  const text = removeFileOperationBlocks(splitLastRequest(extractModelSummary(answer)).body).trim();
  return request.kind === 'history' && request.lastUserRequest?.trim()
    ? { text, lastRequest: request.lastUserRequest }
    : { text };
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
