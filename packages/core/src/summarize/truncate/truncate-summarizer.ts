import type { Message } from '../../messages/types.js';
import { mergeFileOperations } from '../file-operations/merge-file-operations.js';
import { parseFileOperations } from '../file-operations/parse-file-operations.js';
import { removeFileOperationBlocks } from '../file-operations/remove-file-operation-blocks.js';
import { renderFileOperations } from '../file-operations/render-file-operations.js';
import { cutText, cutToTokens } from '../framing/cut-text.js';
import { appendLastRequest, splitLastRequest } from '../framing/split-last-request.js';
import type { FileOperations, SummarizeRequest, Summarizer } from '../types.js';

/** Options of {@link truncateSummarizer}. */
export type TruncateSummarizerOptions = {
  /**
   * How much of an earlier summary's text (without its file lists) is carried forward.
   * @default 2000
   */
  maxPreviousSummaryChars?: number;
};

const ROLE_ORDER = ['user', 'assistant', 'tool', 'system'] as const;

/**
 * The last-resort summarizer (seed 004's `:truncate`): no model and no analysis, and it
 * never throws, whatever the input. It writes
 * `[Compacted N messages: 12 user, 30 assistant, 28 tool]`, the start of an earlier summary
 * when there is one, the `<read-files>` / `<modified-files>` blocks, and
 * `Last request from user was: …` (a huge paste cut, with a marker, to half of
 * `request.maxTokens`, at least 500 tokens).
 *
 * @example
 * ```ts
 * const summarizer = truncateSummarizer();
 * ```
 */
export function truncateSummarizer(options: TruncateSummarizerOptions = {}): Summarizer {
  const maxPrevious = Math.max(0, Number(options?.maxPreviousSummaryChars ?? 2000) || 0);
  return {
    name: 'truncate',
    summarize: async (request) => {
      try {
        return truncateSummary(request, maxPrevious);
      } catch {
        return `[Compacted ${safeLength(request)} messages]`;
      }
    },
  };
}

function truncateSummary(request: SummarizeRequest, maxPrevious: number): string {
  const messages: unknown[] = Array.isArray(request?.messages) ? [...request.messages] : [];
  const counts = new Map<string, number>();
  for (const message of messages) {
    const role = isMessage(message) ? message.role : 'unknown';
    counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  const roles = [...ROLE_ORDER.filter((role) => counts.has(role)), ...[...counts.keys()].filter(isOtherRole)];
  const tally = roles.map((role) => `${counts.get(role)} ${role}`).join(', ');
  const lines = [
    `[Compacted ${messages.length} message${messages.length === 1 ? '' : 's'}${tally ? `: ${tally}` : ''}]`,
  ];
  const previous = typeof request?.previousSummary === 'string' ? request.previousSummary : '';
  const previousBody = removeFileOperationBlocks(splitLastRequest(previous).body).trim();
  if (previousBody && maxPrevious > 0) lines.push(`Earlier summary:\n${cutText(previousBody, maxPrevious)}`);
  if (request?.kind !== 'turn-prefix') {
    lines.push(renderFileOperations(mergeFileOperations(parseFileOperations(previous), fileOpsOf(request))));
  }
  const lastRequest =
    typeof request?.lastUserRequest === 'string' ? request.lastUserRequest : splitLastRequest(previous).lastRequest;
  return request?.kind === 'turn-prefix'
    ? lines.join('\n\n')
    : appendLastRequest(lines.join('\n\n'), capLastRequest(lastRequest, request));
}

/**
 * The carried last request, cut with a marker when it is a huge paste: to half of
 * `request.maxTokens` (at least 500 tokens), measured with the request's counter, or at
 * four characters a token without one. The kept messages hold it whole.
 */
function capLastRequest(lastRequest: string | undefined, request: SummarizeRequest): string | undefined {
  if (lastRequest === undefined) return undefined;
  const maxTokens = typeof request?.maxTokens === 'number' && request.maxTokens > 0 ? request.maxTokens : 4000;
  const cap = Math.max(500, Math.floor(maxTokens / 2));
  if (lastRequest.length <= cap) return lastRequest;
  const counter = request?.counter;
  if (counter && typeof counter.countText === 'function') return cutToTokens(lastRequest, cap, counter);
  return cutText(lastRequest, cap * 4);
}

function fileOpsOf(request: SummarizeRequest): FileOperations {
  const fileOps = request?.fileOps;
  return {
    read: Array.isArray(fileOps?.read) ? fileOps.read : [],
    modified: Array.isArray(fileOps?.modified) ? fileOps.modified : [],
  };
}

function isMessage(value: unknown): value is Pick<Message, 'role'> {
  return typeof value === 'object' && value !== null && typeof (value as { role?: unknown }).role === 'string';
}

function isOtherRole(role: string): boolean {
  return !(ROLE_ORDER as readonly string[]).includes(role);
}

function safeLength(request: SummarizeRequest): number {
  try {
    return Array.isArray(request?.messages) ? request.messages.length : 0;
  } catch {
    return 0;
  }
}
