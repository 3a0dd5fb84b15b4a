import type { Message } from '../messages/types.js';
import type { ResolvedSettings } from '../settings/compaction-settings.js';
import { fallbackChain } from '../summarize/fallback/summarize-with-fallback.js';
import { extractFileOperations, type FileToolMap, mergeFileOperations } from '../summarize/index.js';
import type { Summarizer } from '../summarize/types.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionResult, CompactionTrigger } from './compaction-result.js';
import type { CompactionState } from './compaction-state.js';
import { contextTokens } from './context-tokens.js';
import { nextState } from './next-state.js';
import { type CompactionPlan, prepareCompaction } from './prepare-compaction.js';
import { pruneOnly } from './prune-only.js';
import { summarizePlan } from './summarize-plan.js';

/** How one compaction counts tokens: the session passes its own, so every figure matches its estimate. */
export type CompactCounting = {
  /** Counts the messages the context builder made or changed (summary, pruned outputs, repairs). */
  counter: TokenCounter;
  /** Tokens of one history message. @default a token cache over `counter` (`createTokenCache(counter).count`) */
  countTokens?: ((message: Message) => number) | undefined;
  /**
   * Turns counted tokens into the context size the provider will report (the
   * session's calibration: tokenizer ratio and the system prompt / tool
   * definitions the messages do not hold). Every token figure of the result,
   * and the prune-only decision, use it.
   * @default identity
   */
  toContextTokens?: ((counted: number) => number) | undefined;
};

/**
 * Everything one compaction runs on: what `compact()` takes from a user, resolved
 * (settings, counting), plus the knobs only the session turns. Internal: build
 * on `compact()` instead.
 */
export type CompactWithOptions = {
  /** The state of the previous compaction; its summary is updated, not redone. */
  previous?: CompactionState | undefined;
  /**
   * Makes the summary; the chain falls back to the structured and then the
   * truncate summarizer when it throws.
   * @default structuredSummarizer()
   */
  summarizer?: Summarizer | undefined;
  /** The settings, already resolved (`resolveSettings`): they are not checked again. */
  settings: ResolvedSettings;
  /** How tokens are counted. */
  counting: CompactCounting;
  /** Focus for the summary, e.g. "focus on the parser bug". @default undefined (none) */
  instructions?: string | undefined;
  /** Aborts the summarizer calls; the compaction then rejects with the signal's reason. @default undefined */
  signal?: AbortSignal | undefined;
  /** Which tools read or modify files, on top of the default map. @default undefined (the default map) */
  fileToolMap?: FileToolMap | undefined;
  /** Emergency mode: forced cut, no prune-only shortcut. @default false */
  force?: boolean | undefined;
  /** Overrides `settings.keepRecentTokens` for this compaction (escalation, manual `/compact`). @default settings.keepRecentTokens */
  keepRecentTokens?: number | undefined;
  /** Context tokens before compaction (the session's estimate). @default measured with `counting` */
  tokensBefore?: number | undefined;
  /** A precomputed plan (from `prepareCompaction`). @default planned here */
  plan?: CompactionPlan | undefined;
  /** Recorded in the result. @default 'manual' */
  trigger?: CompactionTrigger | undefined;
  /** Clock, for the state's `createdAt`. @default () => new Date() */
  now?: (() => Date) | undefined;
};

/**
 * One compaction, in steps: plan the cut (`prepareCompaction`); try the cheap
 * pre-pass (`pruneOnly`: clear old tool outputs, enough when it alone brings the
 * context down far enough); else summarize the plan (`summarizePlan`: a split
 * turn gets two summaries requested in parallel, an update of the previous
 * summary takes only the newly summarized messages, each through the fallback
 * chain — the given summarizer → structured → truncate); then build the next
 * state once (`nextState`). `messages` is not modified. Returns undefined when
 * there is nothing to compact. The entry the session calls; `compact()` is the
 * public one.
 */
export async function compactWith(
  messages: readonly Message[],
  options: CompactWithOptions,
): Promise<CompactionResult | undefined> {
  const { previous, settings, counting } = options;
  const { counter } = counting;
  const countTokens = counting.countTokens ?? createTokenCache(counter).count;
  const trigger = options.trigger ?? 'manual';
  const plan =
    options.plan ??
    prepareCompaction(messages, previous, settings, {
      countTokens,
      force: options.force ?? false,
      ...(options.keepRecentTokens !== undefined ? { keepRecentTokens: options.keepRecentTokens } : {}),
    });
  if (!plan) return undefined;
  const toContext = counting.toContextTokens ?? ((counted: number) => counted);
  const measure = (state: CompactionState | undefined) =>
    toContext(contextTokens(messages, state, countTokens, counter, { historyTools: settings.historyTools }));
  const tokensBefore = options.tokensBefore ?? measure(previous);
  const createdAt = (options.now ?? (() => new Date()))().toISOString();
  const version = (previous?.version ?? 0) + 1;

  if (settings.pruneToolOutputs && !options.force && !options.instructions && plan.prunableToolCallIds.length > 0) {
    const pruned = pruneOnly({ messages, plan, previous, settings, version, createdAt, tokensBefore, measure });
    if (pruned) return { ...pruned, trigger };
  }

  const summarized = [...plan.historyMessages, ...plan.turnPrefixMessages];
  const fileOps = mergeFileOperations(
    previous?.fileOps ?? { read: [], modified: [] },
    extractFileOperations(summarized, options.fileToolMap),
  );
  const { summary, summaryParts, lastRequest, strategy, fallbacks } = await summarizePlan({
    plan,
    previous,
    summarizers: fallbackChain(options.summarizer),
    settings,
    counter,
    countTokens,
    fileOps,
    instructions: options.instructions,
    signal: options.signal,
  });
  const state = nextState(
    {
      version,
      summary,
      summaryParts,
      ...(lastRequest !== undefined ? { lastRequest } : {}),
      firstKeptMessageId: messages[plan.firstKeptIndex]!.id,
      summarizedRange: { fromIndex: 0, toIndex: plan.firstKeptIndex - 1, messageCount: plan.firstKeptIndex },
      prunedToolCallIds: keptToolResults(plan.keptMessages, previous?.prunedToolCallIds ?? []),
      fileOps,
      tokensBefore,
      strategy,
      createdAt,
    },
    measure,
  );
  return {
    state,
    tokensBefore,
    tokensAfter: state.tokensAfter,
    messagesSummarized: plan.firstKeptIndex - plan.startIndex,
    strategy,
    isSplitTurn: plan.isSplitTurn,
    fallbacks,
    trigger,
  };
}

/** The ids among `toolCallIds` whose results are still in the kept messages (one pass over them). */
function keptToolResults(kept: readonly Message[], toolCallIds: readonly string[]): string[] {
  if (toolCallIds.length === 0) return [];
  const results = new Set<string>();
  for (const message of kept) {
    for (const part of message.parts) if (part.type === 'tool-result') results.add(part.toolCallId);
  }
  return toolCallIds.filter((id) => results.has(id));
}
