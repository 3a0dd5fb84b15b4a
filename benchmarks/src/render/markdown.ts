/** A markdown table: a header row, an alignment row (text left, figures right), the rows. */
export function table(columns: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const escapeCell = (cell: string) => cell.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const line = (cells: string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  const rule = columns.map((_, index) => ((align[index] ?? (index === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---'));
  return [line(columns), `| ${rule.join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** A duration in milliseconds, with digits that mean something at its size. */
export function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (value < 0.01) return `${value.toFixed(4)} ms`;
  if (value < 1) return `${value.toFixed(3)} ms`;
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 100) return `${value.toFixed(1)} ms`;
  if (value < 10_000) return `${Math.round(value).toLocaleString('en-US')} ms`;
  return `${(value / 1000).toFixed(1)} s`;
}

/** A whole number with thousands separators. */
export function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A ratio as `×12` (≥ 10: whole; below: one decimal). */
export function times(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 10 ? `×${int(value)}` : `×${value.toFixed(1)}`;
}

/**
 * How ours compares with a peer, in words a reader cannot misread:
 * `peerMs / oursMs` above 1 means ours is faster.
 */
export function versus(peerMs: number, oursMs: number): string {
  const ratio = peerMs / oursMs;
  if (!Number.isFinite(ratio)) return '—';
  if (ratio >= 1.1) return `ours ${times(ratio)} faster`;
  if (ratio > 1 / 1.1) return 'about the same';
  return `**ours ${times(1 / ratio)} slower**`;
}

/** ✅ or ❌ with a word, for a target. */
export function verdict(holds: boolean): string {
  return holds ? '✅ met' : '❌ **not met**';
}
