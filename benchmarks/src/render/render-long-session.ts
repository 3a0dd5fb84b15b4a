import type { LongSessionRow } from '../long-session/long-session.bench.ts';
import { int, ms, table } from './markdown.ts';
import { NOT_MEASURED, type ResultHeader, rerun } from './result-files.ts';

/** `long-session.json` as `long-session.bench.ts` writes it. */
export type LongSessionResult = ResultHeader & { measuredCalls: number; rows: LongSessionRow[] };

/** The section on a long chat lived call by call: flat `prepare()`, bounded pauses and summaries. */
export function renderLongSession(
  result: LongSessionResult | undefined,
  title = '8. A long chat, call by call',
): string {
  const lines = [`## ${title}`, ''];
  if (!result) return [...lines, NOT_MEASURED].join('\n');
  lines.push(
    `A session with the default settings and structured summary in an ${int(result.rows[0]?.contextWindow ?? 0)}-token window gets one short user turn and reply at a time, with \`prepare()\` before every model call (the shape of \`r12\` / \`r12b\`). Median \`prepare()\` over the last ${int(result.measuredCalls)} calls; the pause of the session's first, last and longest compaction; summary and context at the end. Before the stacked summary was bounded, one \`prepare()\` took 26 ms at 500 turns and 1,090 ms at 4,000, and at 600 turns the summary was 8,946 tokens and the context over the window.`,
    '',
    table(
      [
        'turns',
        'messages',
        'compactions',
        'prepare() median',
        'first / last / longest compaction',
        'summary / budget',
        'context / window',
        'errors',
      ],
      result.rows.map((row) => [
        int(row.turns),
        int(row.messages),
        int(row.compactions),
        ms(row.prepareMedianMs),
        `${ms(row.firstCompactionMs)} / ${ms(row.lastCompactionMs)} / ${ms(row.longestCompactionMs)}`,
        `${int(row.summaryTokens)} / ${int(row.summaryBudget)}`,
        `${int(row.contextTokens)} / ${int(row.contextWindow)}`,
        int(row.errors),
      ]),
      ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    rerun(result.command ?? 'cd benchmarks && node src/long-session/long-session.bench.ts', result),
  );
  return lines.join('\n');
}
