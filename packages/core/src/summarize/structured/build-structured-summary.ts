import { mergeFileOperations } from '../file-operations/merge-file-operations.js';
import { cutText } from '../framing/cut-text.js';
import { userWords } from '../framing/harness-text.js';
import { previousOf } from '../previous-summary.js';
import type { SummarizeRequest, SummaryPart } from '../types.js';
import { loadCarriedFacts } from './carried-facts.js';
import { collectSummaryFacts } from './collect-summary-facts.js';
import { parseSummaryFacts, readSummaryLines } from './parse-summary-facts.js';
import { renderStructuredSummary, type StructuredRender } from './render-structured-summary.js';
import { addRequest, type CommandFact, dedupeErrors, type SummaryFacts, upgradeRequest } from './summary-facts.js';

/** The default token budget of {@link structuredSummarizer}. */
export const DEFAULT_STRUCTURED_BUDGET = 4000;
/** The share of the budget a split turn's prefix summary gets; its history summary gets the rest. */
export const SPLIT_TURN_PREFIX_SHARE = 0.25;
/** Tokens of the heading and blank lines the engine puts between a history and a turn-prefix summary. */
const JOIN_TOKENS = 16;

/** A tighter budget for small context windows: `structuredSummarizer({ maxTokens: COMPACT_STRUCTURED_BUDGET })`. */
export const COMPACT_STRUCTURED_BUDGET = 2000;

/**
 * The deterministic summary of {@link structuredSummarizer}, synchronously: the facts of
 * `request.messages` merged with those the earlier summary carried (`request.previous`: the
 * facts stored with a structured part; a part written as prose, by a model, is read for its
 * lines; a `previousSummary` given alone is read once as text), rendered within `maxTokens`
 * (measured with `request.counter`; also kept under `request.replacedTokens`, so a summary is
 * always smaller than what it replaces). The cost depends on the new messages and the previous
 * summary (itself within its budget), not on the session's age. The last request is carried
 * verbatim unless it alone is over a quarter of the budget; harness-injected text
 * (`<task-notification>`, `<system-reminder>`, …) is never taken as one.
 */
export function buildStructuredSummary(request: SummarizeRequest, { maxTokens }: { maxTokens: number }): string {
  return buildStructuredDraft(request, { maxTokens }).text;
}

/** {@link buildStructuredSummary}, with the draft its text is rendered from (what the state keeps). */
export function buildStructuredDraft(
  request: SummarizeRequest,
  { maxTokens }: { maxTokens: number },
): StructuredRender {
  const shared = splitTurnShare(request, maxTokens);
  const budget =
    request.replacedTokens > 1 && Number.isFinite(request.replacedTokens)
      ? Math.max(1, Math.min(shared, Math.ceil(request.replacedTokens) - 1))
      : shared;
  const current = collectSummaryFacts(request.messages);
  const previous = previousFacts(request);
  const facts = previous ? mergeFacts(previous, current) : current;
  facts.fileOps = mergeFileOperations(previous?.fileOps, request.fileOps);
  const given = request.lastUserRequest !== undefined ? userWords(request.lastUserRequest) : '';
  const lastRequest = capLastRequest(given || facts.lastRequest, request, budget);
  if (lastRequest !== undefined) facts.lastRequest = lastRequest;
  return renderStructuredSummary(facts, {
    kind: request.kind,
    maxTokens: budget,
    counter: request.counter,
    instructions: request.kind === 'history' ? request.instructions : undefined,
    lastRequest,
  });
}

/**
 * The facts of the earlier summary, part by part in order: a part's carried facts; a part
 * written as prose, its lines; a `verbatim` part (text from outside the engine's fields), its
 * lines, file lists and last request, read once. Its carried last request and file lists join.
 */
function previousFacts(request: SummarizeRequest): SummaryFacts | undefined {
  const previous = previousOf(request);
  if (!previous) return undefined;
  let facts: SummaryFacts | undefined;
  for (const part of previous.parts) {
    const partFacts = factsOfPart(part);
    if (facts) {
      const fileOps = mergeFileOperations(facts.fileOps, partFacts.fileOps);
      facts = { ...mergeFacts(facts, partFacts), fileOps };
    } else facts = partFacts;
  }
  if (!facts) return undefined;
  if (previous.lastRequest?.trim()) facts.lastRequest = previous.lastRequest;
  if (previous.fileOps) facts.fileOps = mergeFileOperations(facts.fileOps, previous.fileOps);
  return facts;
}

function factsOfPart(part: SummaryPart): SummaryFacts {
  if (part.facts) return loadCarriedFacts(part.facts);
  return part.verbatim ? parseSummaryFacts(part.text) : readSummaryLines(part.text);
}

/**
 * The budget of one of the two summaries a split turn stores as one (a `turn-prefix` request,
 * or a `history` request marked `splitTurn`), so that together they stay within `maxTokens`.
 */
function splitTurnShare(request: SummarizeRequest, maxTokens: number): number {
  const prefix = Math.floor(maxTokens * SPLIT_TURN_PREFIX_SHARE);
  if (request.kind === 'turn-prefix') return Math.max(1, prefix - JOIN_TOKENS);
  return request.splitTurn ? Math.max(1, maxTokens - prefix) : maxTokens;
}

/**
 * An earlier summary's facts followed by the new span's. Requests stay in the order they were
 * made: the earlier summary's list, then the span's. The earlier summary's last request joins
 * the list only when it has no request list (an LLM summary): otherwise it was the request of
 * the messages kept after it, which the span now lists in its place.
 */
function mergeFacts(previous: SummaryFacts, current: SummaryFacts): SummaryFacts {
  const requests: string[] = [];
  for (const request of previous.requests) addRequest(requests, request);
  if (previous.lastRequest && !previous.listsRequests) addRequest(requests, previous.lastRequest);
  // A listed request the earlier summary also carried verbatim regains its full text.
  else if (previous.lastRequest) upgradeRequest(requests, previous.lastRequest);
  for (const request of current.requests) addRequest(requests, request);
  const toolCounts = new Map(previous.toolCounts);
  for (const [name, count] of current.toolCounts) toolCounts.set(name, (toolCounts.get(name) ?? 0) + count);
  const earlierErrors = previous.errors.map((error) => ({
    ...error,
    resolved:
      error.resolved ||
      (error.subject === undefined
        ? current.succeededTools.has(error.tool)
        : current.succeededSubjects.has(`${error.tool}\u0000${error.subject}`)),
  }));
  return {
    ...current,
    goal: previous.goal ?? current.goal,
    requests,
    ...(previous.unlistedRequests ? { unlistedRequests: previous.unlistedRequests } : {}),
    lastRequest: current.lastRequest ?? previous.lastRequest,
    toolCounts,
    errors: dedupeErrors([...earlierErrors, ...current.errors]),
    succeededTools: new Set([...previous.succeededTools, ...current.succeededTools]),
    statements: [...previous.statements, ...current.statements],
    todos: current.todos.length > 0 ? current.todos : previous.todos,
    commands: mergeCommands(previous.commands, current.commands),
    carried: [...previous.carried, ...current.carried.filter((line) => !previous.carried.includes(line))],
    summarizedMessages: previous.summarizedMessages + current.summarizedMessages,
    mentioned: new Set([...previous.mentioned, ...current.mentioned]),
    ...(previous.root ? { root: previous.root } : {}),
  };
}

/** Earlier commands, then the span's; a command run in both keeps its runs and failures summed and its latest outcome. */
function mergeCommands(previous: readonly CommandFact[], current: readonly CommandFact[]): CommandFact[] {
  const merged = new Map(previous.map((command) => [command.command, command]));
  for (const command of current) {
    const earlier = merged.get(command.command);
    merged.delete(command.command);
    const lastFailure = command.lastFailure ?? earlier?.lastFailure;
    merged.set(
      command.command,
      earlier
        ? {
            ...command,
            runs: earlier.runs + command.runs,
            failures: earlier.failures + command.failures,
            ...(lastFailure !== undefined ? { lastFailure } : {}),
          }
        : command,
    );
  }
  return [...merged.values()];
}

function capLastRequest(lastRequest: string | undefined, request: SummarizeRequest, maxTokens: number) {
  if (lastRequest === undefined || !lastRequest.trim() || request.kind === 'turn-prefix') return undefined;
  const cap = maxTokens / 4;
  const tokens = request.counter.countText(lastRequest);
  if (tokens <= cap) return lastRequest;
  return cutText(lastRequest, Math.floor((lastRequest.length * cap) / tokens));
}
