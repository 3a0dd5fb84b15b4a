import type { TokenCounter } from '../../tokens/token-counter.js';
import { commonRoot } from '../file-operations/common-root.js';
import type { FileListing } from '../file-operations/condense-file-operations.js';
import { appendLastRequest } from '../framing/split-last-request.js';
import { fileListText, historyText } from '../render-summary.js';
import type { SummarizeRequest, SummaryDraft } from '../types.js';
import { carriedSummaryFacts } from './carried-summary-facts.js';
import { focusLines } from './focus-lines.js';
import { selectSummaryItems } from './select-summary-items.js';
import { codeSpan, summarizedLine } from './structured-summary-lines.js';
import { type SummaryFacts, shorten } from './summary-facts.js';
import { type SummaryItem, type SummarySection, summaryItems } from './summary-items.js';
import { GOAL_CHARS, listedRequests, type RequiredLevel, sectionLines } from './summary-layout.js';

/**
 * The required part (goal, every request, every path, the last request) is rendered at the
 * first level that leaves at least half the budget for the rest; when none down to the floor
 * (64 characters a request, paths in full) does, at the first that fits.
 * Requests are cut shorter before paths are grouped by folder (`src/{a.ts,b.ts}`, still every
 * name), then counted by folder, then the oldest requests are counted instead of listed, and
 * last the paths are only counted (the state keeps every one).
 */
const LEVELS: readonly RequiredLevel[] = [
  { requestChars: 400, files: 'full', maxRequests: Number.POSITIVE_INFINITY },
  { requestChars: 200, files: 'full', maxRequests: Number.POSITIVE_INFINITY },
  { requestChars: 120, files: 'full', maxRequests: Number.POSITIVE_INFINITY },
  { requestChars: 64, files: 'full', maxRequests: Number.POSITIVE_INFINITY },
  { requestChars: 64, files: 'grouped', maxRequests: Number.POSITIVE_INFINITY },
  { requestChars: 40, files: 'grouped', maxRequests: Number.POSITIVE_INFINITY },
  { requestChars: 40, files: 'counted', maxRequests: Number.POSITIVE_INFINITY },
  { requestChars: 40, files: 'counted', maxRequests: 20 },
  { requestChars: 24, files: 'counted', maxRequests: 5 },
  { requestChars: 24, files: 'omitted', maxRequests: 2 },
  { requestChars: 24, files: 'omitted', maxRequests: 0 },
];
/** What ends a summary cut to fit: a placeholder line, so nothing reads it back as a request or a path. */
const CUT_LINE = '- (cut to fit the budget)';
/** More characters a token than any tokenizer packs into text like paths: a listing longer than the budget times this is over it. */
const MAX_CHARS_PER_TOKEN = 32;
/** Share of the budget the required part may take before a more condensed level is tried. */
const REQUIRED_SHARE = 0.5;
/** The most condensed level (every request's first 64 characters, every path in full) tried for room alone. */
const FLOOR_LEVEL = 3;

/** The worth of a name seen only in code and tool input, against 1 for a name the conversation mentions. */
const MENTIONED_ONLY_IN_CODE = 0.4;

/** What {@link renderStructuredSummary} needs besides the facts. */
export type StructuredRenderOptions = {
  kind: SummarizeRequest['kind'];
  /** The summary never counts more (measured with `counter`). */
  maxTokens: number;
  counter: TokenCounter;
  /** A manual compaction's focus, put first in Critical Context. */
  instructions?: string | undefined;
  /** Carried verbatim after the summary (`history` only); already cut to its share of the budget. */
  lastRequest?: string | undefined;
};

/** A structured summary: its text, and the draft the state keeps (the text is rendered from it). */
export type StructuredRender = { text: string; draft: SummaryDraft };

/**
 * A structured summary of `facts`, within `options.maxTokens`: the headings of the LLM format;
 * the goal, every genuine user request and every file path (required, condensed last); then
 * the optional lines (`summaryItems`) chosen by information value until the budget is used
 * (`selectSummaryItems`), each in its section in the order it happened. A history summary
 * ends with the file blocks and the last request. Returns the text and the draft it is
 * rendered from: the sections, the file listing chosen, the last request and the facts the
 * text shows (carried into the next update). A summary that only fits cut at a line is a
 * `verbatim` draft.
 */
export function renderStructuredSummary(facts: SummaryFacts, options: StructuredRenderOptions): StructuredRender {
  const count = (text: string) => options.counter.countText(text);
  const paths = [...facts.fileOps.modified, ...facts.fileOps.read, ...facts.files.map((file) => file.path)];
  // An earlier summary's folder is kept while every path is under it, so its carried lines stay right.
  const root = facts.root && paths.every((path) => path.startsWith(facts.root ?? '')) ? facts.root : commonRoot(paths);
  const items = summaryItems(facts, root);
  // Each listing of the file blocks is rendered and counted once (they can hold thousands of paths).
  const fileBlocks = new Map<FileListing, { text: string; tokens: number }>();
  const filesOf = (listing: FileListing) => {
    let block = fileBlocks.get(listing);
    if (!block) {
      // A turn-prefix summary has no file blocks: the history summary carries them.
      const text = options.kind === 'turn-prefix' ? '' : fileListText(facts.fileOps, listing);
      // A listing far longer than the budget in characters cannot fit: no need to count it.
      block = {
        text,
        tokens: text.length > options.maxTokens * MAX_CHARS_PER_TOKEN ? Number.POSITIVE_INFINITY : count(text),
      };
      fileBlocks.set(listing, block);
    }
    return block;
  };
  const render = (level: RequiredLevel, chosen: readonly SummaryItem[]) =>
    appendLastRequest(
      historyText(assemble(facts, options, level, root, chosen), filesOf(level.files).text),
      options.lastRequest,
    );
  const result = (level: RequiredLevel, chosen: readonly SummaryItem[], text: string): StructuredRender => {
    const carried = carriedSummaryFacts(facts, {
      kind: options.kind,
      instructions: options.instructions,
      level,
      root,
      chosen,
    });
    const fitted = cutToBudget(text, options);
    if (fitted !== text) return { text: fitted, draft: { text: fitted, verbatim: true, facts: carried } };
    const body = assemble(facts, options, level, root, chosen);
    const draft: SummaryDraft =
      options.kind === 'turn-prefix'
        ? { text: body, facts: carried }
        : {
            text: body,
            facts: carried,
            fileListing: level.files,
            ...(options.lastRequest?.trim() ? { lastRequest: options.lastRequest } : {}),
          };
    return { text, draft };
  };
  let level = LEVELS[LEVELS.length - 1]!;
  let requiredTokens: number | undefined;
  for (const [index, candidate] of LEVELS.entries()) {
    const tokens =
      count(appendLastRequest(assemble(facts, options, candidate, root, []), options.lastRequest)) +
      filesOf(candidate.files).tokens;
    const roomy = tokens <= options.maxTokens * REQUIRED_SHARE;
    if (roomy || (tokens <= options.maxTokens && requiredTokens === undefined))
      [level, requiredTokens] = [candidate, tokens];
    // Past the floor, requests and paths are condensed only when the floor does not fit at all.
    if (roomy || (index >= FLOOR_LEVEL && requiredTokens !== undefined)) break;
  }
  if (requiredTokens === undefined) return result(level, [], render(level, []));
  // Names the user or the assistant wrote in their own words are what the conversation is about.
  const nameWeight = (name: string) => (facts.mentioned.has(name) ? 1 : MENTIONED_ONLY_IN_CODE);
  let chosen = selectSummaryItems(items, Math.floor((options.maxTokens - requiredTokens) * 0.98), count, nameWeight);
  let text = render(level, chosen);
  while (count(text) > options.maxTokens && chosen.length > 0) {
    chosen = chosen.slice(0, Math.floor(chosen.length * 0.9));
    text = render(level, chosen);
  }
  return result(level, chosen, text);
}

function assemble(
  facts: SummaryFacts,
  options: StructuredRenderOptions,
  level: RequiredLevel,
  root: string | undefined,
  chosen: readonly SummaryItem[],
): string {
  const section = (key: SummarySection, none: string) => {
    const lines = sectionLines(chosen, key).map((line) => line.text);
    return lines.length > 0 ? lines : none ? [none] : [];
  };
  const { unlisted: first, listed } = listedRequests(facts, level);
  const requests = [
    ...(first > 0 ? [`- (${first} earlier request${first > 1 ? 's' : ''} not listed)`] : []),
    ...listed.map((request, index) => `${first + index + 1}. ${request}`),
  ];
  const rootLine = root ? [`- Paths are relative to ${codeSpan(root)}`] : [];
  if (options.kind === 'turn-prefix') {
    return sections([
      [
        '## Turn Request',
        [
          '### User Requests',
          ...(requests.length > 0 ? requests : ['- (the request came before this part of the turn)']),
        ],
      ],
      ['## Tried So Far', [...rootLine, ...section('done', ''), ...section('blocked', ''), ...section('commands', '')]],
      [
        '## Intermediate Results',
        [...section('inProgress', ''), ...section('decisions', ''), ...section('next', '- (nothing recorded)')],
      ],
    ]);
  }
  const focus = options.instructions?.trim() ? [...focusLines(facts, options.instructions), ''] : [];
  const commands = section('commands', '');
  const notices = section('notices', '');
  const earlier = section('earlier', '');
  const body = sections([
    [
      '## Goal',
      // The goal is the first request, listed in full below: its opening says what it is.
      [shorten(facts.goal ?? '(no user request in the summarized messages)', Math.min(level.requestChars, GOAL_CHARS))],
    ],
    [
      '## Constraints & Preferences',
      section('constraints', "- (none stated; the user's requests, in their words, are under Critical Context)"),
    ],
    [
      '## Progress',
      [
        '### Done',
        summarizedLine(facts.summarizedMessages, facts.spanMessages),
        ...section('done', ''),
        '',
        '### In Progress',
        ...section('inProgress', '- (nothing recorded)'),
        '',
        '### Blocked',
        ...section('blocked', '- (nothing recorded)'),
      ],
    ],
    ['## Key Decisions', section('decisions', '- (none recorded)')],
    ['## Next Steps', section('next', '1. (continue with the last user request, quoted at the end)')],
    [
      '## Critical Context',
      [
        ...focus,
        '### User Requests',
        ...(requests.length > 0 ? requests : ['- (none)']),
        ...rootLine,
        ...(commands.length > 0 ? ['', '### Commands Run', ...commands] : []),
        ...(notices.length > 0 ? ['', '### Harness Notices', ...notices] : []),
        ...(earlier.length > 0 ? ['', '### Earlier Context', ...earlier] : []),
      ],
    ],
  ]);
  return body;
}

/** A line that only says a section is empty: the first to go when a summary must be cut. */
const PLACEHOLDER_LINE = /^(?:- |1\. )\((?:none[^)]*|nothing recorded|continue with[^)]*)\)$/;

/**
 * The last resort when even the most condensed rendering is over the budget. First the
 * lines that only say a section is empty go, with headings left with nothing under them;
 * then whole lines from the end, never those of a manual compaction's `### Focus` block
 * (what the user asked to keep), and a line says the summary was cut.
 */
function cutToBudget(text: string, options: StructuredRenderOptions): string {
  let tokens = options.counter.countText(text);
  if (tokens <= options.maxTokens) return text;
  let lines = withoutPlaceholders(text.split('\n'));
  let result = lines.join('\n');
  tokens = options.counter.countText(result);
  const focusStart = lines.findIndex((line) => line.startsWith('### Focus: '));
  const focusEnd = focusStart === -1 ? -1 : lines.findIndex((line, index) => index > focusStart && line === '');
  const focus = focusStart === -1 ? [] : lines.slice(focusStart, focusEnd === -1 ? undefined : focusEnd);
  if (focus.length > 0 && tokens > options.maxTokens) {
    // The focus leads what is left, so cutting from the end keeps it.
    lines = [...focus, '', ...lines.filter((_, index) => index < focusStart || (focusEnd !== -1 && index > focusEnd))];
  }
  const protectedLines = focus.length;
  // Whole lines are dropped from the end, and a placeholder line says so (read back as nothing).
  while (tokens > options.maxTokens && lines.length > protectedLines) {
    const share = Math.floor((lines.length * options.maxTokens * 0.9) / tokens);
    const keep = Math.max(protectedLines, Math.min(lines.length - 1, share));
    lines = lines.slice(0, keep);
    result = lines.length > 0 ? `${lines.join('\n')}\n${CUT_LINE}` : '';
    tokens = options.counter.countText(result);
  }
  if (tokens <= options.maxTokens) return result;
  return result.slice(0, Math.max(0, options.maxTokens));
}

/** `lines` without placeholder lines, and without the headings that had only those under them. */
function withoutPlaceholders(lines: readonly string[]): string[] {
  const kept = lines
    .filter((line) => !PLACEHOLDER_LINE.test(line))
    .filter((line, index, all) => !(line === '' && index > 0 && all[index - 1] === ''));
  return kept.filter((line, index) => {
    if (!line.startsWith('#') || line.startsWith('### Focus: ')) return true;
    const next = kept.slice(index + 1).find((candidate) => candidate !== '');
    return next !== undefined && (!next.startsWith('#') || next.split(' ')[0]!.length > line.split(' ')[0]!.length);
  });
}

function sections(entries: [string, string[]][]): string {
  return entries.map(([heading, lines]) => [heading, ...lines].join('\n')).join('\n\n');
}
