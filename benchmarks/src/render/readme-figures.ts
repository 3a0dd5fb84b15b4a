/**
 * The README's "How it does" figures, generated from the benchmark results: each bullet
 * is rendered from one result and sits in README.md between `<!-- figure:<key> -->`
 * lines inside the `<!-- figures:start … -->` / `<!-- figures:end -->` block. A result
 * missing from a run leaves its bullet as it was, so a partial run never drops one.
 */

import type { Stats } from '@compaction/bench-kit/measure';
import type { BenchCell } from '../economy/bench-result.ts';
import { int, ms } from './markdown.ts';

/** A result with columns and rows (`economy.json`, `retention.json`). */
export type RowsResult = { columns: string[]; rows: BenchCell[][] };

/** The part of `core-prepare.json` the README reads. */
export type PrepareSizes = { sizes: { messages: number; rows: { prepareWithUsage: Stats } }[] };

/** The results the bullets come from; each one optional. */
export type ReadmeSources = { economy?: RowsResult; retention?: RowsResult; corePrepare?: PrepareSizes };

/** Keys of the bullets, in their order in the README. */
export const FIGURE_KEYS = ['economy', 'retention', 'core-prepare'] as const;
/** One bullet of the README's figures block. */
export type FigureKey = (typeof FIGURE_KEYS)[number];

const START = '<!-- figures:start';
const END = '<!-- figures:end -->';

function column(result: RowsResult, name: string): number {
  const index = result.columns.indexOf(name);
  if (index < 0) throw new Error(`result has no "${name}" column (columns: ${result.columns.join(', ')})`);
  return index;
}

/** `[-47.1, -59.2]` → `47–59%`; one value → `47%`. */
function range(values: number[]): string {
  const low = Math.round(Math.min(...values.map(Math.abs)));
  const high = Math.round(Math.max(...values.map(Math.abs)));
  return low === high ? `${low}%` : `${low}–${high}%`;
}

/** `−2.4` → `2.4% fewer`, `3.1` → `3.1% more`. */
function fewerOrMore(change: number): string {
  return change <= 0 ? `${Math.abs(change)}% fewer` : `${change}% more`;
}

/** `−7.1` → `7.1% lower`, `3.1` → `3.1% higher`. */
function lowerOrHigher(change: number): string {
  return change <= 0 ? `${Math.abs(change)}% lower` : `${change}% higher`;
}

/** The session `npm run demo` replays (apps/demo's `DEMO_SESSION_FILE`): the README quotes the same figures. */
export const README_SESSION = '258c7280';

/** The economy bullet: the demo's session with the default settings, and the economy preset's range. */
export function economyFigure(economy: RowsResult): string | undefined {
  const [session, run, calls, input, cost] = [
    'session',
    'run',
    'calls',
    'input vs recorded (%)',
    'cost vs recorded (%)',
  ].map((name) => column(economy, name)) as [number, number, number, number, number];
  const withChange = economy.rows.filter((row) => typeof row[input] === 'number');
  const longest = withChange.find((row) => row[run] === '@compaction default' && row[session] === README_SESSION);
  if (!longest) return undefined;
  // The economy preset's range over the sessions Claude Code itself compacted (the others are too short to).
  const compactions = column(economy, 'compactions');
  const compacting = new Set(
    economy.rows
      .filter((row) => row[run] === 'Claude Code (recorded)' && Number(row[compactions]) > 0)
      .map((row) => row[session]),
  );
  const economyRows = withChange.filter((row) => row[run] === '@compaction economy' && compacting.has(row[session]));
  const economyPart =
    economyRows.length === 0
      ? ''
      : `; the \`economy\` preset (\`COMPACTION_PRESETS.economy\`) sends ${range(economyRows.map((row) => Number(row[input])))} fewer, at ${range(economyRows.map((row) => Number(row[cost])))} lower cache-aware cost`;
  return (
    `replaying a real ${int(Number(longest[calls]))}-call session with the default settings sends ${fewerOrMore(Number(longest[input]))} input tokens ` +
    `(summarization calls included) than Claude Code did, at ${lowerOrHigher(Number(longest[cost]))} cache-aware cost${economyPart}`
  );
}

/** `3/4 (75%)` → `{ kept: 3, total: 4 }`. */
function kept(cell: BenchCell): { kept: number; total: number } | undefined {
  const match = /^(\d+)\/(\d+)/.exec(String(cell));
  return match ? { kept: Number(match[1]), total: Number(match[2]) } : undefined;
}

/** `3/4 (75%)` → its percentage, or undefined for `n/a`. */
function percent(cell: BenchCell): number | undefined {
  const value = kept(cell);
  return value && value.total > 0 ? (value.kept / value.total) * 100 : undefined;
}

/**
 * The retention bullet: what core's structured summaries (rows named `… structured, N
 * budget`) keep of the spans Claude Code compacted: the file paths and genuine user
 * requests, and the share of the identifiers Claude Code's own summary names, per budget.
 */
export function retentionFigure(retention: RowsResult): string | undefined {
  const [summary, identifiers] = [column(retention, 'summary'), column(retention, 'identifiers kept')];
  const keptColumns = ['modified paths kept', 'read paths kept', 'user requests kept'].map((name) =>
    column(retention, name),
  );
  const ours = retention.rows.filter((row) => /structured/i.test(String(row[summary])));
  if (ours.length === 0) return undefined;
  const totals = keptColumns.map((index) =>
    ours.reduce(
      (sum, row) => {
        const cell = kept(row[index] ?? null);
        return cell ? { kept: sum.kept + cell.kept, total: sum.total + cell.total } : sum;
      },
      { kept: 0, total: 0 },
    ),
  );
  const everything = totals.every((total) => total.kept === total.total);
  const what = everything
    ? 'every read and modified file path and every genuine user request'
    : `${totals[0]!.kept} of ${totals[0]!.total} modified and ${totals[1]!.kept} of ${totals[1]!.total} read file paths and ${totals[2]!.kept} of ${totals[2]!.total} genuine user requests`;
  const budgets = [
    ...new Set(ours.map((row) => Number(/([\d,]+) budget/.exec(String(row[summary]))?.[1]?.replaceAll(',', '')))),
  ]
    .filter((budget) => Number.isFinite(budget))
    .sort((a, b) => b - a);
  const shares = budgets.map((budget) => {
    const values = ours
      .filter((row) => String(row[summary]).includes(`${int(budget)} budget`))
      .map((row) => percent(row[identifiers] ?? null))
      .filter((value) => value !== undefined);
    return { budget, values };
  });
  const [first, ...rest] = shares.filter((share) => share.values.length > 0);
  if (!first) return `the deterministic structured summary (no LLM) keeps ${what} of the span Claude Code compacted`;
  const others = rest.map((share) => `${range(share.values)} within ${int(share.budget)}`).join(', ');
  return (
    `the deterministic structured summary (no LLM) keeps ${what} of the span Claude Code compacted, ` +
    `and ${range(first.values)} of the identifiers (modules, functions, commands, paths) Claude Code's own summary names, ` +
    `within its ${int(first.budget)}-token budget${others ? ` (${others}; docs/benchmarks.md §4)` : ''}`
  );
}

/** The per-call bullet: `prepare()` with provider usage reported, at the smallest and largest history. */
export function corePrepareFigure(core: PrepareSizes): string | undefined {
  const [small, large] = [core.sizes[0], core.sizes.at(-1)];
  if (!small || !large) return undefined;
  return `before a model call the engine costs ${ms(small.rows.prepareWithUsage.median)} at ${int(small.messages)} messages and ${ms(large.rows.prepareWithUsage.median)} at ${int(large.messages)} when the provider reports usage (median)`;
}

/** Each bullet that its result lets us render, by key. */
export function renderFigures(sources: ReadmeSources): Partial<Record<FigureKey, string>> {
  const figures: Partial<Record<FigureKey, string>> = {};
  const economy = sources.economy && economyFigure(sources.economy);
  if (economy) figures.economy = economy;
  const retention = sources.retention && retentionFigure(sources.retention);
  if (retention) figures.retention = retention;
  const core = sources.corePrepare && corePrepareFigure(sources.corePrepare);
  if (core) figures['core-prepare'] = core;
  return figures;
}

/**
 * `readme` with the figures block rewritten: each key's bullet replaced by the rendered
 * one, a key without a rendered figure kept as it was.
 *
 * @throws Error when README.md has no figures block.
 */
export function replaceFigures(readme: string, figures: Partial<Record<FigureKey, string>>): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  if (start < 0 || end < 0)
    throw new Error(`README.md has no "${START} … -->" … "${END}" block for the generated figures`);
  const headerEnd = readme.indexOf('-->', start) + 3;
  const current = readme.slice(headerEnd, end);
  const bullets = FIGURE_KEYS.map((key, index) => {
    const rendered = figures[key];
    if (rendered !== undefined) {
      return `<!-- figure:${key} -->\n- ${rendered}${index === FIGURE_KEYS.length - 1 ? '.' : ';'}`;
    }
    const existing = new RegExp(`<!-- figure:${key} -->\\n[^]*?(?=\\n<!-- figure:|\\n*$)`).exec(current.trim());
    return existing ? existing[0] : undefined;
  }).filter((bullet) => bullet !== undefined);
  return `${readme.slice(0, headerEnd)}\n${bullets.join('\n')}\n${readme.slice(end)}`;
}
