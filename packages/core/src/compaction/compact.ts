import type { Message } from '../messages/types.js';
import { getContextWindow } from '../models/index.js';
import { type CompactionSettings, type ResolvedSettings, resolveSettings } from '../settings/compaction-settings.js';
import { fallbackChain } from '../summarize/fallback/summarize-with-fallback.js';
import { extractFileOperations, type FileToolMap, mergeFileOperations } from '../summarize/index.js';
import type { Summarizer } from '../summarize/types.js';
import { countMessageTokens, createTokenCache, gptTokenizerCounter } from '../tokens/index.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { type BuildContextOptions, buildContext } from './build-context.js';
import type { CompactionResult, CompactionTrigger } from './compaction-result.js';
import type { CompactionState } from './compaction-state.js';
import { nextState } from './next-state.js';
import { type CompactionPlan, prepareCompaction } from './prepare-compaction.js';
import { pruneOnly } from './prune-only.js';
import { summarizePlan } from './summarize-plan.js';

export type CompactOptions = {
  /** The state of the previous compaction; its summary is updated, not redone. */
  previous?: CompactionState | undefined;
  /**
   * Makes the summary. Whatever it is, the chain falls back to the structured
   * and then the truncate summarizer when it throws.
   * @default structuredSummarizer()
   */
  summarizer?: Summarizer | undefined;
  /** @default DEFAULT_COMPACTION_SETTINGS */
  settings?: Partial<CompactionSettings> | ResolvedSettings | undefined;
  /** Model id, for the context window when `settings.contextWindow` is not set. */
  model?: string | undefined;
  /** @default gptTokenizerCounter('o200k_base') */
  counter?: TokenCounter | undefined;
  /** Tokens of one message; defaults to a cache over `counter`. */
  countTokens?: ((message: Message) => number) | undefined;
  /** Focus for the summary, e.g. "focus on the parser bug". */
  instructions?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Emergency mode: forced cut, no prune-only shortcut. @default false */
  force?: boolean | undefined;
  /** Overrides `settings.keepRecentTokens` for this compaction. */
  keepRecentTokens?: number | undefined;
  /** Context tokens before compaction; measured when omitted. */
  tokensBefore?: number | undefined;
  /** A precomputed plan (from `prepareCompaction`). */
  plan?: CompactionPlan | undefined;
  /** Which tools read or modify files, on top of the default map. */
  fileToolMap?: FileToolMap | undefined;
  /**
   * Turns counted tokens into the context size the provider will report (the
   * session's calibration: tokenizer ratio and the system prompt / tool
   * definitions the messages do not hold). Every token figure of the result,
   * and the prune-only decision, use it.
   * @default identity
   */
  toContextTokens?: ((counted: number) => number) | undefined;
  /** Recorded in the result. @default 'manual' */
  trigger?: CompactionTrigger | undefined;
  /** Clock, for tests. @default () => new Date() */
  now?: (() => Date) | undefined;
};

/**
 * Tokens of the context built from `history` and `state`. Messages taken from
 * the history as they are use `countTokens` (usually an id cache); messages the
 * context builder made or changed (summary, pruned outputs, repairs) are
 * counted afresh with `counter`.
 */
export function contextTokens(
  history: readonly Message[],
  state: CompactionState | undefined,
  countTokens: (message: Message) => number,
  counter: TokenCounter,
  buildOptions: BuildContextOptions = {},
): number {
  const originals = new Set(history);
  let total = 0;
  for (const message of buildContext(history, state, buildOptions)) {
    total += originals.has(message) ? countTokens(message) : countMessageTokens(message, counter);
  }
  return total;
}

/**
 * Compacts `messages` (the display history, which is not modified), in steps:
 * plan the cut (`prepareCompaction`); try the cheap pre-pass (`pruneOnly`:
 * clear old tool outputs, enough when it alone brings the context down far
 * enough); else summarize the plan (`summarizePlan`: a split turn gets two
 * summaries requested in parallel, an update of the previous summary takes only
 * the newly summarized messages, each through the fallback chain — the given
 * summarizer → structured → truncate); then build the next state once
 * (`nextState`). Returns undefined when there is nothing to compact.
 */
export async function compact(
  messages: readonly Message[],
  options: CompactOptions = {},
): Promise<CompactionResult | undefined> {
  const { previous } = options;
  // An explicit `settings.contextWindow` wins over the model's; `resolveSettings` applies that.
  const settings = resolveSettings(options.settings, getContextWindow(options.model));
  const counter = options.counter ?? gptTokenizerCounter();
  const countTokens = options.countTokens ?? createTokenCache(counter).count;
  const trigger = options.trigger ?? 'manual';
  const plan =
    options.plan ??
    prepareCompaction(messages, previous, settings, {
      countTokens,
      force: options.force ?? false,
      ...(options.keepRecentTokens !== undefined ? { keepRecentTokens: options.keepRecentTokens } : {}),
    });
  if (!plan) return undefined;
  const toContext = options.toContextTokens ?? ((counted: number) => counted);
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
  const { summary, strategy, fallbacks } = await summarizePlan({
    plan,
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
