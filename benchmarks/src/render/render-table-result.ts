import { int, table } from './markdown.ts';
import { NOT_MEASURED, rerun } from './result-files.ts';

/**
 * The shape `economy.json` and `retention.json` share (documented in
 * `src/economy/README.md`): a titled table with notes and checked targets.
 */
export type TableResult = {
  name: string;
  title: string;
  description: string;
  columns: string[];
  rows: (number | string | null)[][];
  notes: string[];
  targets: { target: string; holds: boolean; detail: string }[];
  tiny: boolean;
  command?: string;
  finishedAt?: string;
};

/** A cell: numbers with separators, percentages (columns ending in “(%)”) signed with one decimal, null as a dash. */
function cell(value: number | string | null, column: string): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  if (column.endsWith('(%)')) return `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;
  return Number.isInteger(value) ? int(value) : String(value);
}

/** A section for a {@link TableResult}, or “not measured” when the benchmark produced none. */
export function renderTableResult(heading: string, result: TableResult | undefined, command: string): string {
  const lines = [`## ${heading}`, ''];
  if (!result) return [...lines, NOT_MEASURED].join('\n');
  if (result.title) lines.push(`**${result.title}.** ${result.description}`, '');
  else if (result.description) lines.push(result.description, '');
  const numeric = result.columns.map((_column, index) =>
    result.rows.some((row) => typeof row[index] === 'number') ? 'r' : 'l',
  );
  lines.push(
    table(
      result.columns,
      result.rows.map((row) => row.map((value, index) => cell(value, result.columns[index] ?? ''))),
      numeric,
    ),
    '',
  );
  if (result.targets.length > 0) {
    lines.push('**Targets:**', '');
    for (const target of result.targets) {
      lines.push(`- ${target.target}: ${target.holds ? '✅ holds' : '❌ **does not hold**'} (${target.detail})`);
    }
    lines.push('');
  }
  if (result.notes.length > 0) {
    for (const note of result.notes) lines.push(`- ${note}`);
    lines.push('');
  }
  lines.push(rerun(result.command ?? command, result));
  return lines.join('\n');
}
