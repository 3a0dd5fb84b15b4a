/**
 * Issue 14's bounds, measured: (1) the largest summarization request a forced
 * compaction of each recorded Claude Code session sends to a summary model with a
 * 100K window — before the bound, one such request was 171,769 tokens; (2) what
 * twelve 300 KB screenshots returned as tool results are estimated at (before:
 * 2,467,944 tokens, and the chat was cut to 3 of 36 messages); (3) how long
 * `prepare()` waits for a summarizer that never answers, with a 1 s
 * `summaryTimeoutMs`. Writes `hardening.json`. Needs a build (`pnpm bench` builds first).
 *
 *   node src/hardening/hardening.bench.ts   (from benchmarks/)
 */
import { readFileSync } from 'node:fs';
import { isTiny, startResult } from '@compaction/bench-kit/bench-env';
import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import {
  createCompactionSession,
  type GenerateText,
  gptTokenizerCounter,
  HISTORY_SUMMARY_HEADINGS,
  llmSummarizer,
  type Message,
  resolveSettings,
} from '@compaction/core';
import { compactWith } from '@compaction/core/internal';
import { sessionFiles, sessionLabel } from '../economy/session-files.ts';

/** Summary models' windows: that of the case the issue reports, and a small one that needs chunks. */
export const SUMMARY_WINDOWS = [100_000, 32_000] as const;

const result = startResult('hardening', 'cd benchmarks && node src/hardening/hardening.bench.ts');
const counter = gptTokenizerCounter();

/** A summary model that records each request's size and answers with a summary naming what it read. */
function recordingModel(requests: number[]): GenerateText {
  return async (system, prompt, { maxOutputTokens }) => {
    requests.push(counter.countText(system) + counter.countText(prompt) + maxOutputTokens);
    const marker = `request ${requests.length}, ${prompt.length} characters read`;
    if (prompt.includes('## Turn Request')) {
      return { text: `## Turn Request\n- ${marker}\n\n## Tried So Far\n- ${marker}`, finishReason: 'stop' };
    }
    return {
      text: HISTORY_SUMMARY_HEADINGS.map((heading) => `## ${heading}\n- ${marker}`).join('\n\n'),
      finishReason: 'stop',
    };
  };
}

/** (1) One forced compaction of the whole session, as an overflow recovery would run it. */
async function largestRequest(file: string, summaryWindow: number) {
  const { messages } = parseClaudeCodeSession(readFileSync(file, 'utf8'));
  const requests: number[] = [];
  const compaction = await compactWith(messages, {
    settings: resolveSettings({ contextWindow: 200_000 }, 200_000),
    summarizer: llmSummarizer({ generate: recordingModel(requests), contextWindow: summaryWindow }),
    counting: { counter },
    force: true,
    keepRecentTokens: 20_000,
  });
  return {
    session: sessionLabel(file),
    summaryWindow,
    messages: messages.length,
    summarizedTokens: compaction ? compaction.tokensBefore - compaction.tokensAfter : 0,
    requests: requests.length,
    largestRequestTokens: Math.max(0, ...requests),
    strategy: compaction?.strategy ?? 'none',
  };
}

/** (2) Twelve 300 KB screenshots as tool results: the session's estimate and what it keeps. */
async function screenshots() {
  const png = Buffer.alloc(300 * 1024, 1).toString('base64');
  const session = createCompactionSession({ sessionId: 'shots', model: 'claude-sonnet-4-5' });
  let compactions = 0;
  session.on((event) => {
    if (event.type === 'compaction:end') compactions += 1;
  });
  const history: Message[] = [];
  for (let step = 0; step < 12; step += 1) {
    history.push(
      { id: `u${step}`, role: 'user', parts: [{ type: 'text', text: `step ${step}` }] },
      {
        id: `c${step}`,
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId: `s${step}`, toolName: 'screenshot', input: {} }],
      },
      {
        id: `r${step}`,
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            toolCallId: `s${step}`,
            toolName: 'screenshot',
            output: { type: 'content', value: [{ type: 'media', mediaType: 'image/png', data: png }] },
          },
        ],
      },
    );
  }
  await session.append(history);
  const prepared = await session.prepare();
  return { messages: history.length, kept: prepared.messages.length, estimatedTokens: prepared.tokens, compactions };
}

/** (3) A summarizer that never answers: how long `prepare()` takes with a 1 s deadline. */
async function stalledSummarizer() {
  const timeoutMs = 1_000;
  const session = createCompactionSession({
    sessionId: 'stalled',
    settings: { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000, summaryTimeoutMs: timeoutMs },
    summarizer: llmSummarizer({ generate: () => new Promise(() => {}) }),
  });
  let strategy = 'none';
  session.on((event) => {
    if (event.type === 'compaction:end') strategy = event.strategy;
  });
  await session.append(
    Array.from(
      { length: 20 },
      (_, index): Message => ({
        id: `m${index}`,
        role: index % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text: 'w '.repeat(500) }],
      }),
    ),
  );
  const started = performance.now();
  await session.prepare();
  return { summaryTimeoutMs: timeoutMs, prepareMs: Math.round(performance.now() - started), strategy };
}

const files = isTiny() ? sessionFiles().slice(0, 1) : sessionFiles();
const sessions = [];
for (const summaryWindow of SUMMARY_WINDOWS) {
  for (const file of files) {
    const row = await largestRequest(file, summaryWindow);
    console.log(
      `${row.session}: ${row.requests} request(s), largest ${row.largestRequestTokens} tokens (window ${summaryWindow})`,
    );
    sessions.push(row);
  }
}
const shots = await screenshots();
console.log(`screenshots: ${shots.kept} of ${shots.messages} messages kept, estimated ${shots.estimatedTokens} tokens`);
const stalled = await stalledSummarizer();
console.log(
  `stalled summarizer: prepare() took ${stalled.prepareMs} ms (deadline ${stalled.summaryTimeoutMs} ms), ${stalled.strategy}`,
);
console.log(`wrote ${result.finish({ sessions, screenshots: shots, stalled })}`);
process.exit(0);
