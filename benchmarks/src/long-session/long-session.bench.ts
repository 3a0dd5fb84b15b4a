/**
 * A long chat, lived call by call (issue 14, r12 / r12b): a session with the default
 * settings and structured summary in an 8,000-token window gets one user turn and one
 * reply at a time, and `prepare()` runs before every model call, as an agent runs it.
 * Before the bound on stacked summaries, the summary kept every request: at 600 turns
 * it was 8,946 tokens for its budget, the context ended over the window, and one
 * `prepare()` took 26 → 1,090 ms from 500 to 4,000 turns. Measured per session length:
 * the median `prepare()` over the last 100 calls, the pause of the first, the last and
 * the longest compaction, the summary's size against its budget, and the context against the window.
 * Writes `long-session.json`.
 *
 *   node src/long-session/long-session.bench.ts   (from benchmarks/)
 */
import { isTiny, startResult } from '@compaction/bench-kit/bench-env';
import {
  createCompactionSession,
  gptTokenizerCounter,
  type Message,
  MIN_SUMMARY_TOKENS,
  SUMMARY_WINDOW_SHARE,
} from '@compaction/core';

const WINDOW = 8_000;
/** Turns (a user message and a reply) per session: 5,000 turns is 10,000 messages. */
const LENGTHS = isTiny() ? [50, 100] : [500, 1_000, 2_000, 4_000, 5_000];
/** The calls at the end of each session whose `prepare()` is measured. */
const MEASURED_CALLS = isTiny() ? 20 : 100;

const result = startResult('long-session', 'cd benchmarks && node src/long-session/long-session.bench.ts');
const counter = gptTokenizerCounter();
const budget = Math.max(MIN_SUMMARY_TOKENS, Math.floor(WINDOW * SUMMARY_WINDOW_SHARE));

function turn(t: number): Message[] {
  return [
    { id: `u${t}`, role: 'user', parts: [{ type: 'text', text: `Question ${t}: what is the status of ticket ${t}?` }] },
    { id: `a${t}`, role: 'assistant', parts: [{ type: 'text', text: `Ticket ${t} is open.` }] },
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

export type LongSessionRow = {
  turns: number;
  messages: number;
  compactions: number;
  errors: number;
  prepareMedianMs: number;
  /** The pause of the session's first compaction, its last one, and its longest. */
  firstCompactionMs: number;
  lastCompactionMs: number;
  longestCompactionMs: number;
  summaryTokens: number;
  summaryBudget: number;
  contextTokens: number;
  contextWindow: number;
};

const rows: LongSessionRow[] = [];
for (const turns of LENGTHS) {
  const session = createCompactionSession({ sessionId: `long-${turns}`, settings: { contextWindow: WINDOW }, counter });
  let errors = 0;
  session.on((event) => {
    if (event.type === 'compaction:error') errors += 1;
  });
  const prepares: number[] = [];
  const pauses: number[] = [];
  for (let t = 0; t < turns; t += 1) {
    await session.append(turn(t));
    const started = performance.now();
    const prepared = await session.prepare();
    const elapsed = performance.now() - started;
    if (t >= turns - MEASURED_CALLS) prepares.push(elapsed);
    if (prepared.compaction) pauses.push(elapsed);
  }
  const stats = await session.stats();
  const state = await session.state();
  const row: LongSessionRow = {
    turns,
    messages: stats.historyMessages,
    compactions: stats.compactions,
    errors,
    prepareMedianMs: round(median(prepares)),
    firstCompactionMs: round(pauses[0] ?? 0),
    lastCompactionMs: round(pauses.at(-1) ?? 0),
    longestCompactionMs: round(pauses.length > 0 ? Math.max(...pauses) : 0),
    summaryTokens: state ? counter.countText(state.summary) : 0,
    summaryBudget: budget,
    contextTokens: stats.contextTokens,
    contextWindow: stats.contextWindow,
  };
  console.log(
    `${turns} turns: prepare() median ${row.prepareMedianMs} ms, compactions first ${row.firstCompactionMs} / last ${row.lastCompactionMs} / longest ${row.longestCompactionMs} ms, summary ${row.summaryTokens}/${budget} tokens, context ${row.contextTokens}/${WINDOW}, ${row.compactions} compactions, ${errors} errors`,
  );
  rows.push(row);
}
console.log(`wrote ${result.finish({ measuredCalls: MEASURED_CALLS, rows })}`);
process.exit(0);
