import { CompactionError } from '../errors/compaction-error.js';
import { structuredSummarizer } from './structured-summarizer.js';
import { truncateSummarizer } from './truncate-summarizer.js';
import type { SummarizeRequest, Summarizer } from './types.js';

/** The summarizers to try in order: the given one, then structured, then truncate. */
export function fallbackChain(summarizer: Summarizer | undefined): Summarizer[] {
  const chain: Summarizer[] = [];
  for (const candidate of [summarizer, structuredSummarizer(), truncateSummarizer()]) {
    if (candidate && !chain.some((existing) => existing.name === candidate.name)) chain.push(candidate);
  }
  return chain;
}

/**
 * Runs `request` through `summarizers` in order and returns the first non-empty
 * summary with the name of the summarizer that made it. Each failure (a throw
 * or an empty summary) is pushed onto `fallbacks`; an abort is rethrown at once.
 * Throws a `CompactionError` when every summarizer failed.
 */
export async function summarizeWithFallback(
  summarizers: readonly Summarizer[],
  request: SummarizeRequest,
  fallbacks: { strategy: string; error: string }[],
): Promise<{ text: string; strategy: string }> {
  for (const summarizer of summarizers) {
    try {
      const text = await summarizer.summarize(request);
      if (typeof text === 'string' && text.trim().length > 0) return { text, strategy: summarizer.name };
      fallbacks.push({ strategy: summarizer.name, error: 'returned an empty summary' });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      fallbacks.push({ strategy: summarizer.name, error: error instanceof Error ? error.message : String(error) });
    }
  }
  throw new CompactionError(
    'CompactionError',
    `every summarizer failed: ${fallbacks.map((f) => `${f.strategy}: ${f.error}`).join('; ')}`,
  );
}
