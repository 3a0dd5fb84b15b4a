import { expect } from 'vitest';
import { gptTokenizerCounter, type Message, resolveSettings, type Summarizer } from '../src/index.js';
import { compactWith } from '../src/internal/index.js';

/** Twenty long messages: enough to compact in an 8 000-token window. */
export const DEADLINE_HISTORY: readonly Message[] = Array.from({ length: 20 }, (_, index) => ({
  id: `m${index}`,
  role: index % 2 ? 'assistant' : 'user',
  parts: [{ type: 'text', text: `m${index} ${'w '.repeat(500)}` }],
}));

/** An 8 000-token window whose summary call may take `summaryTimeoutMs`. */
export function deadlineSettings(summaryTimeoutMs: number) {
  return { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000, summaryTimeoutMs };
}

/**
 * A model call that never answers, for a framework's test model
 * (`new MockLanguageModelV4({ doGenerate: never.call })`): it records the abort
 * signal of each call in `signals` and, when `listens`, rejects with the signal's
 * reason on abort; otherwise it ignores the signal and stays pending for ever.
 */
export function neverAnswering(listens: boolean) {
  const signals: (AbortSignal | undefined)[] = [];
  const call = ({ abortSignal }: { abortSignal?: AbortSignal | undefined }): Promise<never> =>
    new Promise((_resolve, reject) => {
      signals.push(abortSignal);
      if (listens) abortSignal?.addEventListener('abort', () => reject(abortSignal.reason));
    });
  return { signals, call };
}

/**
 * The deadline test every adapter's summarizer passes (r09): a forced compaction
 * with `summarizer`, whose model does not answer in time, falls back to the
 * structured summary with a timeout recorded, and every signal the model's calls
 * were given (`signals()`, read after the compaction) is aborted.
 */
export async function expectSummaryDeadlineFallback(
  summarizer: Summarizer,
  signals: () => readonly (AbortSignal | undefined)[],
  summaryTimeoutMs: number,
): Promise<void> {
  const result = await compactWith(DEADLINE_HISTORY.slice(), {
    settings: resolveSettings(deadlineSettings(summaryTimeoutMs), 8000),
    counting: { counter: gptTokenizerCounter() },
    summarizer,
    force: true,
  });
  expect(result?.strategy).toBe('structured');
  expect(result?.fallbacks[0]).toMatchObject({ strategy: 'llm', error: expect.stringMatching(/timeout/) });
  expect(signals().length).toBeGreaterThan(0);
  expect(signals().every((signal) => signal?.aborted)).toBe(true);
}
