/** A call row of the printed replay table. */
export type PrintedCall = { call: number; recorded: number | null; ours: number; uncompacted: number };

const number = (text: string): number => Number(text.replaceAll(',', ''));

/** The call rows of `replay`'s printed table. */
export function parsePrintedCalls(stdout: string): PrintedCall[] {
  const rows: PrintedCall[] = [];
  for (const line of stdout.split('\n')) {
    const match = /^\s*(\d+)\s+([\d,]+|—)\s+([\d,]+)\s+([\d,]+)( \*)?( !)?$/.exec(line);
    if (!match) continue;
    rows.push({
      call: Number(match[1]),
      recorded: match[2] === '—' ? null : number(match[2]!),
      ours: number(match[3]!),
      uncompacted: number(match[4]!),
    });
  }
  return rows;
}

/** A totals row (`total input tokens`, `largest context`, `cost units`, …): recorded and ours. */
export function parsePrintedTotal(stdout: string, label: string): { recorded: number | null; ours: number } {
  const line = stdout.split('\n').find((candidate) => candidate.trimStart().startsWith(label));
  if (!line) throw new Error(`no "${label}" line in:\n${stdout}`);
  const [recorded, ours] = line
    .slice(line.indexOf(label) + label.length)
    .trim()
    .split(/\s+/);
  return { recorded: recorded === '—' ? null : number(recorded!), ours: number(ours!) };
}
