/**
 * What a summary keeps: for each span Claude Code compacted in the recorded sessions, core's
 * structured summary at both budgets beside Claude Code's own summary of the same span.
 * Writes `results/retention.json` (shape: README.md beside this file).
 *
 *   node src/retention/retention.bench.ts        # BENCH_TINY=1: short fixtures only
 */
import { readFileSync } from 'node:fs';
import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import {
  COMPACT_STRUCTURED_BUDGET,
  countMessageTokens,
  DEFAULT_STRUCTURED_BUDGET,
  getContextWindow,
  type Message,
  tiktokenCounter,
} from '@compaction/core';
import { replayMessages } from '@compaction/demo';
import { type BenchCell, type BenchTarget, writeBenchResult } from '../economy/bench-result.ts';
import { isTinyRun, sessionFiles, sessionLabel } from '../economy/session-files.ts';
import { identifierCoverage, spanReferenceIdentifiers, spanText } from './identifier-coverage.ts';
import { recordedSummaries } from './recorded-summary.ts';
import { sessionCwd } from './session-cwd.ts';
import { spanFacts } from './span-facts.ts';
import { structuredSpanSummary } from './structured-span-summary.ts';
import { structuredUpdateCost } from './summary-cost.ts';
import { type Kept, REQUEST_PREFIX_CHARS, type SummaryRetention, summaryRetention } from './summary-retention.ts';

const BUDGETS = [DEFAULT_STRUCTURED_BUDGET, COMPACT_STRUCTURED_BUDGET] as const;
const COLUMNS = [
  'session',
  'summary',
  'tokens',
  'identifiers kept',
  'modified paths kept',
  'read paths kept',
  'user requests kept',
];
/** Identifier coverage each budget must reach (issue 17). */
const COVERAGE_TARGETS: Readonly<Record<number, number>> = {
  [DEFAULT_STRUCTURED_BUDGET]: 0.75,
  [COMPACT_STRUCTURED_BUDGET]: 0.6,
};

type Span = { label: string; messages: Message[]; recordedSummary?: string };
type Coverage = { kept: number; total: number; missed: string[] };

function share({ kept, total }: Kept): string {
  return total === 0 ? '0/0' : `${kept}/${total} (${Math.round((kept / total) * 100)}%)`;
}

function row(label: string, summary: string, retention: SummaryRetention, coverage: Coverage | undefined): BenchCell[] {
  return [
    label,
    summary,
    retention.tokens,
    coverage ? share(coverage) : 'n/a',
    share(retention.modified),
    share(retention.read),
    share(retention.requests),
  ];
}

function missedNote(label: string, summary: string, retention: SummaryRetention): string | undefined {
  const missed = [
    ...retention.modified.missed.map((path) => `modified ${path}`),
    ...retention.read.missed.map((path) => `read ${path}`),
    ...retention.requests.missed.map(
      (request) => `request "${request.replace(/\s+/g, ' ').slice(0, REQUEST_PREFIX_CHARS)}"`,
    ),
  ];
  return missed.length === 0 ? undefined : `${label}, ${summary} misses: ${missed.join('; ')}.`;
}

/**
 * The spans Claude Code compacted (everything before each `compact_boundary`); in a tiny run, a
 * whole short session. Claude Code's summary of a span is its compaction agent's answer
 * (`<session>.compaction-agent.jsonl`), else the summary message recorded after the boundary.
 */
function spansOf(file: string, messages: readonly Message[], compactions: { messageIndex: number; summary: string }[]) {
  const label = sessionLabel(file);
  const answers = recordedSummaries(file);
  const spans: Span[] = compactions.map((compaction, index) => ({
    label: compactions.length > 1 ? `${label} #${index + 1}` : label,
    messages: replayMessages(messages.slice(0, compaction.messageIndex)),
    recordedSummary: answers[index] ?? compaction.summary,
  }));
  if (spans.length === 0 && isTinyRun()) spans.push({ label, messages: replayMessages(messages) });
  return spans;
}

const counter = tiktokenCounter('o200k_base');
const rows: BenchCell[][] = [];
const notes: string[] = [];
const targets: BenchTarget[] = [];
for (const file of sessionFiles()) {
  const text = readFileSync(file, 'utf8');
  const session = parseClaudeCodeSession(text);
  const cwd = sessionCwd(text);
  const contextWindow = getContextWindow(session.calls[0]?.model);
  for (const span of spansOf(file, session.messages, session.compactions)) {
    const facts = spanFacts(span.messages);
    const identifiers =
      span.recordedSummary === undefined
        ? undefined
        : spanReferenceIdentifiers(span.recordedSummary, spanText(span.messages));
    const spanTokens = span.messages.reduce((total, message) => total + countMessageTokens(message, counter), 0);
    notes.push(
      `${span.label}: the span holds ${span.messages.length} messages (${spanTokens.toLocaleString('en-US')} tokens), ` +
        `${facts.modified.length} modified and ${facts.read.length} read paths, ${facts.requests.length} genuine user requests` +
        (identifiers ? `, ${identifiers.length} identifiers of Claude Code's summary that occur in it.` : '.'),
    );
    for (const budget of BUDGETS) {
      const name = `@compaction structured, ${budget.toLocaleString('en-US')} budget`;
      const summary = await structuredSpanSummary(span.messages, { maxTokens: budget, counter, contextWindow });
      const retention = summaryRetention(summary, facts, { counter, cwd });
      const coverage = identifiers ? identifierCoverage(summary, identifiers) : undefined;
      rows.push(row(span.label, name, retention, coverage));
      const note = missedNote(span.label, name, retention);
      if (note) notes.push(note);
      if (coverage && coverage.total > 0) {
        const target = COVERAGE_TARGETS[budget] ?? 0;
        targets.push({
          target: `${span.label}: ${name} keeps ≥ ${Math.round(target * 100)}% of the identifiers of Claude Code's summary`,
          holds: retention.tokens <= budget && coverage.kept / coverage.total >= target,
          detail: `${share(coverage)} in ${retention.tokens.toLocaleString('en-US')} tokens`,
        });
        notes.push(`${span.label}, ${name} misses identifiers: ${coverage.missed.join(', ') || 'none'}.`);
      }
      const all = (['modified', 'read', 'requests'] as const).every(
        (kind) => retention[kind].kept === retention[kind].total,
      );
      targets.push({
        target: `${span.label}: ${name} keeps every file path and user request`,
        holds: all,
        detail: `modified ${share(retention.modified)}, read ${share(retention.read)}, requests ${share(retention.requests)}; ${retention.tokens.toLocaleString('en-US')} tokens`,
      });
      targets.push({
        target: `${span.label}: ${name} stays within its budget`,
        holds: retention.tokens <= budget,
        detail: `${retention.tokens.toLocaleString('en-US')} of ${budget.toLocaleString('en-US')} tokens`,
      });
    }
    if (span.recordedSummary !== undefined) {
      const retention = summaryRetention(span.recordedSummary, facts, { counter, cwd });
      const coverage = identifiers ? identifierCoverage(span.recordedSummary, identifiers) : undefined;
      rows.push(row(span.label, 'Claude Code (recorded, reference)', retention, coverage));
      const note = missedNote(span.label, 'Claude Code', retention);
      if (note) notes.push(note);
    }
  }
  process.stderr.write(`retention: ${sessionLabel(file)} done\n`);
}
// Issue 14 (r12): one stacked update costs what its span costs, whatever the session's age.
{
  const ages = isTinyRun() ? [100, 400] : [100, 1000, 4000];
  const costs = [];
  for (const age of ages) costs.push(await structuredUpdateCost(age, { maxTokens: COMPACT_STRUCTURED_BUDGET }));
  // The same update as the engine runs it: built on the facts the state carries, not on the text read back.
  const stateCosts = [];
  for (const age of ages) {
    stateCosts.push(await structuredUpdateCost(age, { maxTokens: COMPACT_STRUCTURED_BUDGET, from: 'state' }));
  }
  const first = costs[0]!;
  const last = costs[costs.length - 1]!;
  notes.push(
    `Cost of one structured update (a 50-turn span, ${COMPACT_STRUCTURED_BUDGET.toLocaleString('en-US')}-token budget) after stacked compactions of a generated coding chat: ` +
      costs
        .map(
          (cost) =>
            `${cost.age.toLocaleString('en-US')} earlier turns ${cost.fastestMs.toFixed(1)} ms (summary ${cost.summaryTokens.toLocaleString('en-US')} tokens)`,
        )
        .join('; ') +
      ' (fastest of 15 runs).',
  );
  notes.push(
    'The same update built on the state (the facts the previous summary carries, as the engine runs it since issue 13) instead of its text read back: ' +
      stateCosts
        .map(
          (cost) =>
            `${cost.age.toLocaleString('en-US')} earlier turns ${cost.fastestMs.toFixed(1)} ms (summary ${cost.summaryTokens.toLocaleString('en-US')} tokens)`,
        )
        .join('; ') +
      ' (fastest of 15 runs).',
  );
  targets.push({
    target: `a structured update after ${last.age.toLocaleString('en-US')} earlier turns costs at most 3× one after ${first.age.toLocaleString('en-US')}, and every summary stays within its budget`,
    holds:
      last.fastestMs <= 3 * Math.max(first.fastestMs, 1) &&
      costs.every((cost) => cost.summaryTokens <= COMPACT_STRUCTURED_BUDGET),
    detail: `${first.fastestMs.toFixed(1)} ms → ${last.fastestMs.toFixed(1)} ms; largest summary ${Math.max(...costs.map((cost) => cost.summaryTokens)).toLocaleString('en-US')} tokens`,
  });
}
notes.unshift(
  "Spans: every message before Claude Code's compact_boundary, as core imports them (parseClaudeCodeSession). " +
    "Claude Code's summary is the isCompactSummary message that replaced them; ours is the structured summarizer's for the same messages, built as core's compact() would ask for it (first compaction, size limit 5% of the window).",
  `Measured the same way for every summary: tokens with tiktoken o200k; paths from Read (read) and Edit/Write/MultiEdit/NotebookEdit (modified) tool-call inputs, a path read and modified counting as modified, kept when the summary names it in full or relative to the session's working directory; user requests are core's genuine requests (genuineRequestText: not synthetic, harness-injected text such as <task-notification> removed), kept when their first ${REQUEST_PREFIX_CHARS} characters appear (runs of whitespace count as one space).`,
  "Identifiers kept: of the code-like identifiers Claude Code's own summary (its compaction agent's answer) mentions that occur in the span — backticked spans, dotted/slashed/qualified names, snake_case, camelCase/PascalCase, --flags; edge punctuation dropped, case kept, at least 3 characters, a letter, not starting with a digit — the share a summary contains with no name character directly around it (identifier-coverage.ts documents the extraction). The reference row is 100% by construction: it shows the size that coverage costs Claude Code's model.",
);

const written = writeBenchResult({
  name: 'retention',
  title: 'What a summary keeps',
  description:
    "For each span Claude Code compacted in the recorded sessions, the size of core's structured summary at the default (4,000) and compact (2,000) budgets, the share of Claude Code's identifiers it keeps, and the share of the span's file paths and genuine user requests it keeps, beside Claude Code's own summary of the same span.",
  columns: COLUMNS,
  rows,
  notes,
  targets,
  tiny: isTinyRun(),
});
process.stderr.write(`retention: wrote ${written}\n`);
for (const target of targets)
  process.stderr.write(`  ${target.holds ? 'holds' : 'MISSED'}  ${target.target}: ${target.detail}\n`);
