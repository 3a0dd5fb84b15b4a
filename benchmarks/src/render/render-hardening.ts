import { int, ms, table } from './markdown.ts';
import { NOT_MEASURED, type ResultHeader, rerun } from './result-files.ts';

/** `hardening.json` as `hardening.bench.ts` writes it. */
export type HardeningResult = ResultHeader & {
  sessions: {
    session: string;
    summaryWindow: number;
    messages: number;
    summarizedTokens: number;
    requests: number;
    largestRequestTokens: number;
    strategy: string;
  }[];
  screenshots: { messages: number; kept: number; estimatedTokens: number; compactions: number };
  stalled: { summaryTimeoutMs: number; prepareMs: number; strategy: string };
};

/** The section on issue 14's bounds: summary requests within the window, media counted as media, no wait past the deadline. */
export function renderHardening(
  result: HardeningResult | undefined,
  title = '6. Bounds under real conditions',
): string {
  const lines = [`## ${title}`, ''];
  if (!result) return [...lines, NOT_MEASURED].join('\n');
  const { sessions, screenshots, stalled } = result;
  lines.push(
    `**Summarization requests stay within the summary model's window.** A forced compaction of each recorded session (everything but the last 20K tokens summarized, as an overflow recovery does) with an LLM summarizer whose model has a 100K or a 32K window: the largest request (system prompt + prompt + output limit) and how many requests it took (a span larger than the window is summarized in chunks, each updating the last). Before the bound, one such compaction sent a 171,769-token prompt for a 100K window.`,
    '',
    table(
      ['session', 'summary window', 'messages', 'requests', 'largest request', 'strategy'],
      sessions.map((row) => [
        row.session,
        int(row.summaryWindow),
        int(row.messages),
        int(row.requests),
        `${int(row.largestRequestTokens)} (${Math.round((100 * row.largestRequestTokens) / row.summaryWindow)}%)`,
        row.strategy,
      ]),
      ['l', 'r', 'r', 'r', 'r', 'l'],
    ),
    '',
    `**Images in tool results are counted as images.** Twelve 300 KB screenshots returned as tool results (\`{ type: 'content', value: [{ type: 'media' }] }\`): estimated at ${int(screenshots.estimatedTokens)} tokens, ${int(screenshots.kept)} of ${int(screenshots.messages)} messages kept, ${int(screenshots.compactions)} compactions (before: 2,467,944 tokens, and the chat was cut to 3 of 36 messages).`,
    '',
    `**A summarizer that never answers is not waited for.** \`prepare()\` with such an LLM summarizer and \`summaryTimeoutMs: ${int(stalled.summaryTimeoutMs)}\`: returned after ${ms(stalled.prepareMs)} with the ${stalled.strategy} summary (before: never).`,
    '',
    rerun(result.command ?? 'cd benchmarks && node src/hardening/hardening.bench.ts', result),
  );
  return lines.join('\n');
}
