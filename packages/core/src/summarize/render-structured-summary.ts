import { errorLine, toolsLine } from './structured-summary-lines.js';
import { oneLine, type SummaryFacts, shorten, type ToolErrorFact } from './summary-facts.js';
import type { SummarizeRequest } from './types.js';

/** How much of each kind of content a rendering keeps. */
export type StructuredLimits = {
  requestChars: number;
  goalChars: number;
  statementCount: number;
  statementChars: number;
  errorCount: number;
  errorChars: number;
  carriedCount: number;
  carriedChars: number;
};

/**
 * The body of a structured summary (without the file blocks and the last request, which
 * `composeSummary` adds): the headings of the LLM format filled from `facts`. Every user
 * request is listed, each cut to `limits.requestChars`.
 */
export function renderStructuredSummary(
  facts: SummaryFacts,
  kind: SummarizeRequest['kind'],
  limits: StructuredLimits,
): string {
  const requests = facts.requests.map((request, index) => `${index + 1}. ${shorten(request, limits.requestChars)}`);
  const statements = facts.statements
    .slice(Math.max(0, facts.statements.length - limits.statementCount))
    .map((statement) => `- ${shorten(statement, limits.statementChars)}`);
  const errors = pickErrors(facts.errors, limits.errorCount);
  const errorText = (error: ToolErrorFact) =>
    errorLine(error.tool, error.resolved, shorten(error.text, limits.errorChars));
  const resolved = errors.kept.filter((error) => error.resolved).map(errorText);
  const unresolved = errors.kept.filter((error) => !error.resolved).map(errorText);
  if (errors.dropped > 0) resolved.push(`- … and ${errors.dropped} more error${errors.dropped > 1 ? 's' : ''}`);
  const tools = facts.toolCounts.size > 0 ? [toolsLine(facts.toolCounts)] : [];
  const carried = facts.carried.slice(0, limits.carriedCount).map((line) => `- ${shorten(line, limits.carriedChars)}`);

  if (kind === 'turn-prefix') {
    return sections([
      [
        '## Turn Request',
        subsection('### User Requests', requests, '- (the request came before this part of the turn)'),
      ],
      ['## Tried So Far', orNone([...tools, ...resolved, ...unresolved])],
      ['## Intermediate Results', subsection('### Recent Assistant Statements', statements, '- (nothing recorded)')],
    ]);
  }
  const last = facts.lastRequest
    ? [`- [ ] Last user request: ${shorten(oneLine(facts.lastRequest), limits.requestChars)}`]
    : [];
  return sections([
    ['## Goal', [shorten(facts.goal ?? '(no user request in the summarized messages)', limits.goalChars)]],
    [
      '## Constraints & Preferences',
      ["- (none recorded: made without a model; the user's requests are listed under Critical Context)"],
    ],
    [
      '## Progress',
      [
        ...subsection('### Done', [...tools, ...resolved], '- (nothing recorded)'),
        '',
        ...subsection('### In Progress', last, '- (nothing recorded)'),
        '',
        ...subsection('### Blocked', unresolved, '- (nothing recorded)'),
      ],
    ],
    [
      '## Key Decisions',
      ["- (none recorded: made without a model; the assistant's recent statements are listed under Critical Context)"],
    ],
    ['## Next Steps', ['1. (continue with the last user request, quoted at the end)']],
    [
      '## Critical Context',
      [
        ...subsection('### User Requests', requests, '- (none)'),
        ...(statements.length > 0 ? ['', ...subsection('### Recent Assistant Statements', statements, '')] : []),
        ...(carried.length > 0 ? ['', ...subsection('### Earlier Context', carried, '')] : []),
      ],
    ],
  ]);
}

/** Unresolved errors first, then the most recent resolved ones; the rest are counted. */
function pickErrors(errors: readonly ToolErrorFact[], limit: number): { kept: ToolErrorFact[]; dropped: number } {
  const unresolved = errors.filter((error) => !error.resolved);
  const resolved = errors.filter((error) => error.resolved);
  const keptUnresolved = unresolved.slice(Math.max(0, unresolved.length - limit));
  const room = Math.max(0, limit - keptUnresolved.length);
  const keptResolved = room > 0 ? resolved.slice(Math.max(0, resolved.length - room)) : [];
  const kept = errors.filter((error) => keptUnresolved.includes(error) || keptResolved.includes(error));
  return { kept, dropped: errors.length - kept.length };
}

function subsection(heading: string, lines: string[], none: string): string[] {
  return [heading, ...(lines.length > 0 ? lines : [none])];
}

function orNone(lines: string[]): string[] {
  return lines.length > 0 ? lines : ['- (nothing recorded)'];
}

function sections(entries: [string, string[]][]): string {
  return entries.map(([heading, lines]) => [heading, ...lines].join('\n')).join('\n\n');
}
