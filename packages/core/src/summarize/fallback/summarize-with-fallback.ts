import { CompactionError } from '../../errors/compaction-error.js';
import { DEFAULT_COMPACTION_SETTINGS } from '../../settings/compaction-settings.js';
import { SPAN_ATTRIBUTES, SPAN_NAMES } from '../../tracing/span-attributes.js';
import { traceSpan } from '../../tracing/trace-span.js';
import { judgeSummary } from '../quality/check-summary-quality.js';
import { renderDraft } from '../render-summary.js';
import { structuredSummarizer } from '../structured/structured-summarizer.js';
import { truncateSummarizer } from '../truncate/truncate-summarizer.js';
import type { SummarizeRequest, Summarizer, SummaryDraft } from '../types.js';
import { callWithTimeout } from './call-with-timeout.js';

/** The summarizers to try in order: the given one, then structured, then truncate. */
export function fallbackChain(summarizer: Summarizer | undefined): Summarizer[] {
  const chain: Summarizer[] = [];
  for (const candidate of [summarizer, structuredSummarizer(), truncateSummarizer()]) {
    if (candidate && !chain.some((existing) => existing.name === candidate.name)) chain.push(candidate);
  }
  return chain;
}

/** Options of {@link summarizeWithFallback}. */
export type SummarizeWithFallbackOptions = {
  /**
   * How long each summarizer may take, in milliseconds (the `summaryTimeoutMs` setting).
   * @default 120000
   */
  timeoutMs?: number;
};

/** A summary the chain accepted: its text, the draft the text is rendered from, the summarizer that made it. */
export type AcceptedSummary = { text: string; draft: SummaryDraft; strategy: string };

/**
 * Runs `request` through `summarizers` in order and returns the first summary the gate
 * accepts ({@link judgeSummary}: not empty and, before the last resort, smaller than what it
 * replaces, not oversized, and for an update not an echo of the previous summary), with the
 * name of the summarizer that made it and its draft (a summarizer with `draft` makes one, the
 * text is rendered from it with `request.fileOps`; another's text is a `verbatim` draft). Each summarizer call has a deadline
 * (`timeoutMs`): on it, the call's signal is aborted and the chain moves on without
 * waiting, even if the summarizer ignores its signal. Each failure (a throw, a timeout, a
 * rejected summary) is pushed onto `fallbacks`; an abort of `request.signal` is rethrown
 * at once. Throws a `CompactionError` when every summarizer failed.
 */
export async function summarizeWithFallback(
  summarizers: readonly Summarizer[],
  request: SummarizeRequest,
  fallbacks: { strategy: string; error: string }[],
  options: SummarizeWithFallbackOptions = {},
): Promise<AcceptedSummary> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_COMPACTION_SETTINGS.summaryTimeoutMs;
  for (const [index, summarizer] of summarizers.entries()) {
    try {
      const attributes = { [SPAN_ATTRIBUTES.summarizer]: summarizer.name, [SPAN_ATTRIBUTES.summaryKind]: request.kind };
      const { made, verdict } = await traceSpan(SPAN_NAMES.summarize, attributes, async (span) => {
        const made = await callWithTimeout(
          (signal) => summarize(summarizer, { ...request, signal }),
          timeoutMs,
          request.signal,
        );
        const verdict = judgeSummary(made.text, request, { last: index === summarizers.length - 1 });
        span.set({ [SPAN_ATTRIBUTES.summaryRejected]: verdict.ok ? undefined : verdict.reason });
        return { made, verdict };
      });
      if (verdict.ok) return { text: made.text as string, draft: made.draft, strategy: summarizer.name };
      fallbacks.push({
        strategy: summarizer.name,
        error: verdict.reason === 'empty' ? verdict.detail : `summary rejected (${verdict.reason}): ${verdict.detail}`,
      });
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

/** One summarizer's answer: its draft when it makes one (the text rendered from it), else its text as a verbatim draft. */
async function summarize(
  summarizer: Summarizer,
  request: SummarizeRequest,
): Promise<{ text: unknown; draft: SummaryDraft }> {
  if (typeof summarizer.draft !== 'function') {
    const text: unknown = await summarizer.summarize(request);
    return { text, draft: { text: typeof text === 'string' ? text : '', verbatim: true } };
  }
  const draft: unknown = await summarizer.draft(request);
  if (typeof draft !== 'object' || draft === null || typeof (draft as SummaryDraft).text !== 'string') {
    return { text: undefined, draft: { text: '', verbatim: true } };
  }
  return { text: renderDraft(request.kind, draft as SummaryDraft, request.fileOps), draft: draft as SummaryDraft };
}
