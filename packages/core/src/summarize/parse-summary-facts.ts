import { parseFileOperations } from './parse-file-operations.js';
import { removeFileOperationBlocks } from './remove-file-operation-blocks.js';
import { splitLastRequest } from './split-last-request.js';
import {
  ERROR_LINE,
  IN_PROGRESS_LINE,
  MORE_ERRORS_LINE,
  PLACEHOLDER_LINE,
  parseToolsLine,
  TOOLS_LINE,
} from './structured-summary-lines.js';
import { addRequest, emptySummaryFacts, oneLine, type SummaryFacts } from './summary-facts.js';

const BULLET = /^(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?/;

/**
 * Reads an earlier summary back into facts, so an update carries everything forward. A
 * structured summary reads back fully (goal, user requests, tool counts, errors, assistant
 * statements, carried lines, files, last request). From any other summary (an LLM's) it
 * takes the goal, the files and the last request, and keeps every other line as a carried
 * line labelled with its heading, e.g. `(Key Decisions) **Use zod**: …`.
 */
export function parseSummaryFacts(summary: string): SummaryFacts {
  const facts = emptySummaryFacts();
  const { body, lastRequest } = splitLastRequest(summary);
  facts.fileOps = parseFileOperations(summary);
  if (lastRequest?.trim()) facts.lastRequest = lastRequest;
  const goal: string[] = [];
  let section: string | undefined;
  let subsection: string | undefined;
  for (const rawLine of removeFileOperationBlocks(body).split('\n')) {
    const line = rawLine.trim();
    const heading = /^(#{1,6})\s+(.+?)\s*#*$/.exec(line);
    if (heading?.[1] && heading[2]) {
      if (heading[1].length <= 2) [section, subsection] = [heading[2], undefined];
      else subsection = heading[2];
      continue;
    }
    if (!line || line.startsWith('```')) continue;
    const place = (subsection ?? section ?? '').toLowerCase();
    if (section?.toLowerCase() === 'goal') goal.push(line);
    else if (place === 'user requests') readRequestLine(line, facts);
    else if (place === 'recent assistant statements') facts.statements.push(line.replace(BULLET, ''));
    else if (place === 'earlier context') facts.carried.push(line.replace(BULLET, ''));
    else readOtherLine(line, subsection ?? section, facts);
  }
  if (goal.length > 0) facts.goal = oneLine(goal.join(' '));
  return facts;
}

function readRequestLine(line: string, facts: SummaryFacts): void {
  if (!/^\d+\.\s/.test(line) && PLACEHOLDER_LINE.test(line)) return;
  addRequest(facts.requests, line.replace(BULLET, ''));
}

function readOtherLine(line: string, heading: string | undefined, facts: SummaryFacts): void {
  const tools = TOOLS_LINE.exec(line);
  if (tools?.[1]) {
    for (const [name, count] of parseToolsLine(tools[1])) {
      facts.toolCounts.set(name, (facts.toolCounts.get(name) ?? 0) + count);
    }
    return;
  }
  const error = ERROR_LINE.exec(line);
  if (error?.[1] && error[2]) {
    facts.errors.push({ tool: error[1], resolved: error[2] === 'a later', text: error[3] ?? '' });
    return;
  }
  if (MORE_ERRORS_LINE.test(line) || IN_PROGRESS_LINE.test(line) || PLACEHOLDER_LINE.test(line)) return;
  const text = line.replace(BULLET, '');
  const carried = heading ? `(${heading}) ${text}` : text;
  if (!facts.carried.includes(carried)) facts.carried.push(carried);
}
