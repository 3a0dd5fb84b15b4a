import type { Message } from '../../messages/types.js';
import { mergeFileOperations } from '../file-operations/merge-file-operations.js';
import { cutText, cutToTokens } from '../framing/cut-text.js';
import { readVerbatimSummary } from '../legacy/read-verbatim-summary.js';
import { previousOf } from '../previous-summary.js';
import { renderDraft, TURN_PREFIX_HEADING } from '../render-summary.js';
import type { FileOperations, PreviousSummary, SummarizeRequest, Summarizer, SummaryDraft } from '../types.js';

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
  const draft = (request: SummarizeRequest): SummaryDraft => {
    try {
      return truncateDraft(request, maxPrevious);
    } catch {
      return { text: `[Compacted ${safeLength(request)} messages]`, verbatim: true };
    }
  };
  return {
    name: 'truncate',
    summarize: async (request) => {
      try {
        return renderDraft(request?.kind, draft(request), fileOpsOf(request, previousOfAny(request)));
      } catch {
        return `[Compacted ${safeLength(request)} messages]`;
      }
    },
    draft: async (request) => draft(request),
  };
}

function truncateDraft(request: SummarizeRequest, maxPrevious: number): SummaryDraft {
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
  const previous = previousOfAny(request);
  const previousBody = previous ? earlierText(previous) : '';
  if (previousBody && maxPrevious > 0) lines.push(`Earlier summary:\n${cutText(previousBody, maxPrevious)}`);
  const text = lines.join('\n\n');
  if (request?.kind === 'turn-prefix') return { text };
  const lastRequest = capLastRequest(
    typeof request?.lastUserRequest === 'string' ? request.lastUserRequest : previousLastRequest(previous),
    request,
  );
  return lastRequest?.trim() ? { text, lastRequest } : { text };
}

/** The earlier summary of a request of any kind (the last resort carries whatever it is given). */
function previousOfAny(request: SummarizeRequest): PreviousSummary | undefined {
  return previousOf({ kind: 'history', previous: request?.previous, previousSummary: request?.previousSummary });
}

/** The text of an earlier summary without its file lists and last request (a verbatim part read once). */
function earlierText(previous: PreviousSummary): string {
  return previous.parts
    .map((part) => {
      const text = part.verbatim ? readVerbatimSummary(part.text).body : part.text.trim();
      return part.kind === 'turn-prefix' && text ? `${TURN_PREFIX_HEADING}\n\n${text}` : text;
    })
    .filter(Boolean)
    .join('\n\n');
}

/** The last request an earlier summary carried: its field, else a verbatim part's own line. */
function previousLastRequest(previous: PreviousSummary | undefined): string | undefined {
  if (!previous) return undefined;
  if (previous.lastRequest !== undefined) return previous.lastRequest;
  for (const part of [...previous.parts].reverse()) {
    if (part.verbatim) return readVerbatimSummary(part.text).lastRequest;
  }
  return undefined;
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

/** The request's file lists (tolerating a malformed one), with those only an earlier summary given as text holds. */
function fileOpsOf(request: SummarizeRequest, previous: PreviousSummary | undefined): FileOperations {
  const fileOps = request?.fileOps;
  let merged: FileOperations = {
    read: Array.isArray(fileOps?.read) ? fileOps.read : [],
    modified: Array.isArray(fileOps?.modified) ? fileOps.modified : [],
  };
  if (previous?.fileOps) merged = mergeFileOperations(previous.fileOps, merged);
  for (const part of previous?.parts ?? []) {
    if (part.verbatim) merged = mergeFileOperations(readVerbatimSummary(part.text).fileOps, merged);
  }
  return merged;
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
