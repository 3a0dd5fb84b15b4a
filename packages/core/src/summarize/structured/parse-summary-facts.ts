import { readVerbatimSummary } from '../legacy/read-verbatim-summary.js';
import { isCheckCommand } from './command-facts.js';
import {
  BULLET,
  IN_PROGRESS_LINE,
  MORE_ERRORS_LINE,
  PLACEHOLDER_LINE,
  parseCommandLine,
  parseErrorLine,
  parseToolsLine,
  ROOT_LINE,
  SUMMARIZED_LINE,
  TOOLS_LINE,
} from './structured-summary-lines.js';
import { addRequest, emptySummaryFacts, oneLine, type SummaryFacts } from './summary-facts.js';

const CARRIED_AS_IS = new Set(['earlier context', 'recent assistant statements']);

/**
 * Reads a summary that exists only as text (a state of schema 1, a custom summarizer's answer,
 * a `previousSummary` given alone) into facts: its file lists and last request with the legacy
 * reader `readVerbatimSummary`, its lines with {@link readSummaryLines}. Summaries the engine
 * made carry their facts in the state and never come here.
 */
export function parseSummaryFacts(summary: string): SummaryFacts {
  const { body, lastRequest, fileOps } = readVerbatimSummary(summary);
  const facts = readSummaryLines(body);
  facts.fileOps = fileOps;
  if (lastRequest?.trim()) facts.lastRequest = lastRequest;
  return facts;
}

/**
 * The facts in the lines of a summary's text (no file lists, no last-request line): what a
 * structured summary takes over from a summary written as prose by a model. A structured
 * summary's lines read back as its goal, user requests (in order), tool counts, errors and
 * commands (with the tool's text, still data); from any other summary (an LLM's) it takes the
 * goal. Every other line is kept as a carried line labelled with its heading, e.g.
 * `(Key Decisions) **Use zod**: …` (lines already under Earlier Context stay as they are). The
 * folder its paths were written relative to is kept, so the next summary writes them against
 * the same folder.
 */
export function readSummaryLines(body: string): SummaryFacts {
  const facts = emptySummaryFacts();
  const lines = body.split('\n');
  const root = lines.map((line) => ROOT_LINE.exec(line.trim())?.[1]).find(Boolean);
  const goal: string[] = [];
  let section: string | undefined;
  let subsection: string | undefined;
  for (const rawLine of lines) {
    const line = rawLine.trim();
    const heading = /^(#{1,6})\s+(.+?)\s*#*$/.exec(line);
    if (heading?.[1] && heading[2]) {
      if (heading[1].length <= 2) [section, subsection] = [heading[2], undefined];
      else subsection = heading[2];
      continue;
    }
    if (!line || line.startsWith('```') || ROOT_LINE.test(line)) continue;
    const place = (subsection ?? section ?? '').toLowerCase();
    if (place === 'user requests') facts.listsRequests = true;
    if (section?.toLowerCase() === 'goal') goal.push(line);
    else if (place === 'user requests') readRequestLine(line, facts);
    else if (CARRIED_AS_IS.has(place)) carry(facts, line.replace(BULLET, ''));
    else readOtherLine(line, subsection ?? section, facts);
  }
  // A placeholder goal (`(no user request in the summarized messages)`) is no goal.
  if (goal.length > 0 && !/^\(.*\)$/.test(oneLine(goal.join(' ')))) facts.goal = oneLine(goal.join(' '));
  if (root) facts.root = root;
  return facts;
}

function readRequestLine(line: string, facts: SummaryFacts): void {
  const unlisted = /^- \((\d+) earlier requests? not listed\)$/.exec(line);
  if (unlisted?.[1]) {
    facts.unlistedRequests = (facts.unlistedRequests ?? 0) + Number(unlisted[1]);
    return;
  }
  if (!/^\d+\.\s/.test(line) && PLACEHOLDER_LINE.test(line)) return;
  addRequest(facts.requests, line.replace(BULLET, ''));
}

function readOtherLine(line: string, heading: string | undefined, facts: SummaryFacts): void {
  const summarized = SUMMARIZED_LINE.exec(line);
  if (summarized?.[1]) {
    facts.summarizedMessages = Number(summarized[1].replace(/,/g, ''));
    return;
  }
  const tools = TOOLS_LINE.exec(line);
  if (tools?.[1]) {
    for (const [name, count] of parseToolsLine(tools[1])) {
      facts.toolCounts.set(name, (facts.toolCounts.get(name) ?? 0) + count);
    }
    return;
  }
  const error = parseErrorLine(line);
  if (error) {
    facts.errors.push(error);
    return;
  }
  const command = parseCommandLine(line, isCheckCommand);
  if (command) {
    facts.commands = facts.commands.filter((known) => known.command !== command.command);
    facts.commands.push(command);
    return;
  }
  if (MORE_ERRORS_LINE.test(line) || IN_PROGRESS_LINE.test(line) || PLACEHOLDER_LINE.test(line)) return;
  const text = line.replace(BULLET, '');
  carry(facts, heading ? `(${heading}) ${text}` : text);
}

function carry(facts: SummaryFacts, line: string): void {
  if (!facts.carried.includes(line)) facts.carried.push(line);
}
