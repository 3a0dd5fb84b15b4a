import { collectSummaryFacts } from './collect-summary-facts.js';
import { composeSummary } from './compose-summary.js';
import { cutText } from './cut-text.js';
import { focusLines } from './focus-lines.js';
import { mergeFileOperations } from './merge-file-operations.js';
import { parseSummaryFacts } from './parse-summary-facts.js';
import { renderStructuredSummary, type StructuredLimits } from './render-structured-summary.js';
import { addRequest, dedupeErrors, type SummaryFacts } from './summary-facts.js';
import type { SummarizeRequest } from './types.js';

/** The default token budget of {@link structuredSummarizer}. */
export const DEFAULT_STRUCTURED_BUDGET = 4000;
/** A tighter budget for small context windows: `structuredSummarizer({ maxTokens: COMPACT_STRUCTURED_BUDGET })`. */
export const COMPACT_STRUCTURED_BUDGET = 2000;

/**
 * Renderings from generous to minimal. Each step shortens requests, the goal, statements,
 * errors and carried lines before the next; no step drops a user request or a file path,
 * and every step keeps at least the first 64 characters of each request.
 */
const LEVELS: readonly StructuredLimits[] = [
  {
    requestChars: 400,
    goalChars: 400,
    statementCount: 3,
    statementChars: 400,
    errorCount: 20,
    errorChars: 300,
    carriedCount: 100,
    carriedChars: 300,
  },
  {
    requestChars: 200,
    goalChars: 200,
    statementCount: 3,
    statementChars: 200,
    errorCount: 12,
    errorChars: 160,
    carriedCount: 40,
    carriedChars: 160,
  },
  {
    requestChars: 120,
    goalChars: 120,
    statementCount: 2,
    statementChars: 120,
    errorCount: 8,
    errorChars: 100,
    carriedCount: 20,
    carriedChars: 100,
  },
  {
    requestChars: 80,
    goalChars: 80,
    statementCount: 1,
    statementChars: 80,
    errorCount: 4,
    errorChars: 60,
    carriedCount: 8,
    carriedChars: 60,
  },
  {
    requestChars: 64,
    goalChars: 64,
    statementCount: 0,
    statementChars: 0,
    errorCount: 0,
    errorChars: 0,
    carriedCount: 0,
    carriedChars: 0,
  },
];

/**
 * The deterministic summary of {@link structuredSummarizer}, synchronously: the facts of
 * `request.messages` merged with those read back from `request.previousSummary`, rendered
 * at the most generous level that fits `maxTokens` (measured with `request.counter`).
 * The budget is a target that the file paths and user requests may exceed: when even the
 * minimal rendering is over it, that rendering is returned with every path and request.
 * The last request is carried verbatim unless it alone is over a quarter of the budget.
 */
export function buildStructuredSummary(request: SummarizeRequest, { maxTokens }: { maxTokens: number }): string {
  const current = collectSummaryFacts(request.messages);
  const previous =
    request.kind === 'history' && request.previousSummary?.trim()
      ? parseSummaryFacts(request.previousSummary)
      : undefined;
  const facts = previous ? mergeFacts(previous, current) : current;
  facts.fileOps = mergeFileOperations(previous?.fileOps, request.fileOps);
  const lastRequest = capLastRequest(request.lastUserRequest ?? facts.lastRequest, request, maxTokens);
  if (lastRequest !== undefined) facts.lastRequest = lastRequest;
  let text = '';
  for (const limits of LEVELS) {
    text = composeSummary(withFocus(renderStructuredSummary(facts, request.kind, limits), facts, request), {
      kind: request.kind,
      fileOps: facts.fileOps,
      lastUserRequest: lastRequest,
    });
    if (request.counter.countText(text) <= maxTokens) break;
  }
  return text;
}

/** Puts the manual compaction's focus at the top of Critical Context (history summaries). */
function withFocus(body: string, facts: SummaryFacts, request: SummarizeRequest): string {
  const instructions = request.instructions?.trim();
  if (!instructions || request.kind !== 'history') return body;
  const heading = '## Critical Context\n';
  const at = body.indexOf(heading);
  if (at < 0) return `${body}\n\n${focusLines(facts, instructions).join('\n')}`;
  const insertAt = at + heading.length;
  return `${body.slice(0, insertAt)}${focusLines(facts, instructions).join('\n')}\n\n${body.slice(insertAt)}`;
}

function mergeFacts(previous: SummaryFacts, current: SummaryFacts): SummaryFacts {
  const requests: string[] = [];
  for (const request of previous.requests) addRequest(requests, request);
  if (previous.lastRequest) addRequest(requests, previous.lastRequest);
  for (const request of current.requests) addRequest(requests, request);
  const toolCounts = new Map(previous.toolCounts);
  for (const [name, count] of current.toolCounts) toolCounts.set(name, (toolCounts.get(name) ?? 0) + count);
  const earlierErrors = previous.errors.map((error) => ({
    ...error,
    resolved: error.resolved || current.succeededTools.has(error.tool),
  }));
  return {
    goal: previous.goal ?? current.goal,
    requests,
    lastRequest: current.lastRequest ?? previous.lastRequest,
    toolCounts,
    errors: dedupeErrors([...earlierErrors, ...current.errors]),
    succeededTools: new Set([...previous.succeededTools, ...current.succeededTools]),
    statements: [...previous.statements, ...current.statements],
    carried: previous.carried,
    fileOps: previous.fileOps,
  };
}

function capLastRequest(lastRequest: string | undefined, request: SummarizeRequest, maxTokens: number) {
  if (lastRequest === undefined || request.kind === 'turn-prefix') return undefined;
  const cap = maxTokens / 4;
  const tokens = request.counter.countText(lastRequest);
  if (tokens <= cap) return lastRequest;
  return cutText(lastRequest, Math.floor((lastRequest.length * cap) / tokens));
}
