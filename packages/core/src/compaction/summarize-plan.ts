import type { Message } from '../messages/types.js';
import { DEFAULT_COMPACTION_SETTINGS, type ResolvedSettings } from '../settings/compaction-settings.js';
import { type AcceptedSummary, summarizeWithFallback } from '../summarize/fallback/summarize-with-fallback.js';
import { textPreviousSummary } from '../summarize/previous-summary.js';
import { renderSummary } from '../summarize/render-summary.js';
import type { FileOperations, SummarizeRequest, Summarizer, SummaryPart } from '../summarize/types.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { type CompactionState, type CompactionStrategy, previousSummaryOf } from './compaction-state.js';
import type { CompactionPlan } from './prepare-compaction.js';

/** The largest share of the context window a summary is asked to fit in. */
export const SUMMARY_WINDOW_SHARE = 0.05;
/** The smallest summary size the engine asks for, whatever the window. */
export const MIN_SUMMARY_TOKENS = 400;

/** What summarizing a plan needs. */
export type SummarizePlanInput = {
  plan: CompactionPlan;
  /** The state of the previous compaction: its summary parts are what an update builds on. */
  previous?: CompactionState | undefined;
  /** The fallback chain, in order (see `fallbackChain`). */
  summarizers: readonly Summarizer[];
  settings: ResolvedSettings;
  counter: TokenCounter;
  countTokens: (message: Message) => number;
  /** File operations merged up to and including the summarized span. */
  fileOps: FileOperations;
  instructions?: string | undefined;
  signal?: AbortSignal | undefined;
};

/**
 * The summary a plan ends in — its parts, the carried last request and the text rendered from
 * them with the file lists — with the strategy that made it and the summarizers that failed first.
 */
export type PlanSummary = {
  /** The text, rendered from the parts, the file lists and the last request. */
  summary: string;
  /** What the summarizers made: the history part, then a split turn's prefix part. */
  summaryParts: SummaryPart[];
  /** The last request carried after the summary, as the history summarizer cut it. */
  lastRequest?: string;
  /** The weakest strategy used. */
  strategy: CompactionStrategy;
  fallbacks: { strategy: string; error: string }[];
};

/**
 * Summarizes a plan: the history span (an update of the previous summary when
 * there is one) and, for a split turn, the turn's prefix, requested in parallel,
 * each through the fallback chain with the settings' deadline. The recorded
 * strategy is the weakest one used. The state's parts are the new history part (or the
 * previous summary's parts, when only a turn's prefix was summarized) and the prefix part;
 * the text is rendered from them once, with `fileOps` and the last request.
 */
export async function summarizePlan(input: SummarizePlanInput): Promise<PlanSummary> {
  const { plan, summarizers, settings, counter, countTokens } = input;
  // A plan made from a state whose parts the caller did not pass: its text, as one opaque part.
  const previous =
    plan.previousSummary === undefined
      ? undefined
      : (previousSummaryOf(input.previous) ?? textPreviousSummary(plan.previousSummary));
  const fallbacks: { strategy: string; error: string }[] = [];
  const base = {
    fileOps: input.fileOps,
    counter,
    maxTokens: Math.max(MIN_SUMMARY_TOKENS, Math.floor(settings.contextWindow * SUMMARY_WINDOW_SHARE)),
    contextWindow: settings.contextWindow,
    ...(input.instructions ? { instructions: input.instructions } : {}),
    ...(plan.lastUserRequest !== undefined ? { lastUserRequest: plan.lastUserRequest } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  };
  const historyRequest: SummarizeRequest | undefined =
    plan.historyMessages.length > 0 || plan.previousSummary === undefined
      ? {
          ...base,
          kind: 'history',
          messages: plan.historyMessages,
          // The turn's prefix summary is stored with it: the two share the size.
          ...(plan.isSplitTurn ? { splitTurn: true } : {}),
          ...(plan.previousSummary !== undefined ? { previousSummary: plan.previousSummary } : {}),
          ...(previous ? { previous } : {}),
          replacedTokens:
            sumTokens(plan.historyMessages, countTokens) +
            (plan.previousSummary ? counter.countText(plan.previousSummary) : 0),
        }
      : undefined;
  const prefixRequest: SummarizeRequest | undefined = plan.isSplitTurn
    ? {
        ...base,
        kind: 'turn-prefix',
        messages: plan.turnPrefixMessages,
        replacedTokens: sumTokens(plan.turnPrefixMessages, countTokens),
      }
    : undefined;

  // Every summarizer call has a deadline (summaryTimeoutMs); the chain moves on without it.
  const chainOptions = { timeoutMs: settings.summaryTimeoutMs ?? DEFAULT_COMPACTION_SETTINGS.summaryTimeoutMs };
  const [historyResult, prefixResult] = await Promise.all([
    historyRequest ? summarizeWithFallback(summarizers, historyRequest, fallbacks, chainOptions) : undefined,
    prefixRequest ? summarizeWithFallback(summarizers, prefixRequest, fallbacks, chainOptions) : undefined,
  ]);
  const parts: SummaryPart[] = historyResult ? [partOf('history', historyResult)] : [...(previous?.parts ?? [])];
  const lastRequest = historyResult ? historyResult.draft.lastRequest : previous?.lastRequest;
  if (prefixResult?.text.trim()) parts.push(partOf('turn-prefix', prefixResult));
  return {
    summary: renderSummary({ parts, fileOps: input.fileOps, lastRequest }),
    summaryParts: parts,
    ...(lastRequest !== undefined ? { lastRequest } : {}),
    strategy: worstStrategy(summarizers, [historyResult?.strategy, prefixResult?.strategy]),
    fallbacks,
  };
}

/** The part the state keeps of an accepted summary. */
function partOf(kind: SummaryPart['kind'], accepted: AcceptedSummary): SummaryPart {
  const { text, facts, fileListing, verbatim } = accepted.draft;
  return {
    kind,
    strategy: accepted.strategy,
    text,
    ...(facts !== undefined ? { facts } : {}),
    ...(fileListing !== undefined && kind === 'history' ? { fileListing } : {}),
    ...(verbatim ? { verbatim } : {}),
  };
}

/** The strategy recorded for the compaction: the weakest (latest in the chain) one used. */
function worstStrategy(summarizers: readonly Summarizer[], used: (string | undefined)[]): CompactionStrategy {
  let worst = -1;
  let name: string | undefined;
  for (const strategy of used) {
    if (strategy === undefined) continue;
    const rank = summarizers.findIndex((summarizer) => summarizer.name === strategy);
    if (rank >= worst) {
      worst = rank;
      name = strategy;
    }
  }
  return name ?? summarizers[0]?.name ?? 'structured';
}

function sumTokens(messages: readonly Message[], countTokens: (message: Message) => number): number {
  let total = 0;
  for (const message of messages) total += countTokens(message);
  return total;
}
