import type { Message } from '../messages/types.js';
import { getContextWindow } from '../models/index.js';
import {
  type CompactionSettings,
  DEFAULT_COMPACTION_SETTINGS,
  type ResolvedSettings,
  resolveSettings,
  triggerTokens,
} from '../settings/compaction-settings.js';
import {
  appendLastRequest,
  extractFileOperations,
  type FileToolMap,
  mergeFileOperations,
  splitLastRequest,
} from '../summarize/index.js';
import { fallbackChain, summarizeWithFallback } from '../summarize/summarize-with-fallback.js';
import type { FileOperations, SummarizeRequest, Summarizer } from '../summarize/types.js';
import { countMessageTokens, createTokenCache, gptTokenizerCounter } from '../tokens/index.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { buildContext } from './build-context.js';
import type { CompactionResult, CompactionTrigger } from './compaction-result.js';
import { COMPACTION_STATE_SCHEMA, type CompactionState, type CompactionStrategy } from './compaction-state.js';
import { type CompactionPlan, prepareCompaction } from './prepare-compaction.js';

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

/** The largest share of the context window a summary is asked to fit in. */
export const SUMMARY_WINDOW_SHARE = 0.05;
/** The smallest summary size the engine asks for, whatever the window. */
export const MIN_SUMMARY_TOKENS = 400;

/**
 * Clearing old tool outputs replaces summarizing only when it brings the context
 * down to about where a summary would: under twice `keepRecentTokens` (or a
 * quarter of the trigger, if that is more). A shallower cut would only make the
 * context climb back to the trigger sooner, and every call in between re-reads it.
 */
export function pruneTargetTokens(settings: ResolvedSettings): number {
  return Math.max(2 * settings.keepRecentTokens, Math.floor(triggerTokens(settings) / 4));
}

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
): number {
  const originals = new Set(history);
  let total = 0;
  for (const message of buildContext(history, state)) {
    total += originals.has(message) ? countTokens(message) : countMessageTokens(message, counter);
  }
  return total;
}

/**
 * Compacts `messages` (the display history, which is not modified). Runs the
 * cheap pre-pass first (clear old tool outputs; enough when it alone brings the
 * context under the trigger), then summarizes: a split turn gets two summaries
 * requested in parallel; with a previous state the summarizer updates the
 * previous summary with only the newly summarized messages. Each summary goes
 * through the fallback chain (the given summarizer → structured → truncate). Returns undefined when there is nothing to compact.
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
  const summarizers = fallbackChain(options.summarizer);
  const extract = (list: readonly Message[]) => extractFileOperations(list, options.fileToolMap);
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
  const tokensBefore = options.tokensBefore ?? toContext(contextTokens(messages, previous, countTokens, counter));
  const createdAt = (options.now ?? (() => new Date()))().toISOString();
  const previousFileOps = previous?.fileOps ?? { read: [], modified: [] };
  const version = (previous?.version ?? 0) + 1;

  if (settings.pruneToolOutputs && !options.force && !options.instructions && plan.prunableToolCallIds.length > 0) {
    const pruned = pruneOnly(
      messages,
      plan,
      previous,
      settings,
      (list, state) => toContext(contextTokens(list, state, countTokens, counter)),
      {
        version,
        createdAt,
        tokensBefore,
        previousFileOps,
      },
    );
    if (pruned) return { ...pruned, trigger };
  }

  const summarized = [...plan.historyMessages, ...plan.turnPrefixMessages];
  const fileOps = mergeFileOperations(previousFileOps, extract(summarized));
  const fallbacks: { strategy: string; error: string }[] = [];
  const base = {
    fileOps,
    counter,
    maxTokens: Math.max(MIN_SUMMARY_TOKENS, Math.floor(settings.contextWindow * SUMMARY_WINDOW_SHARE)),
    contextWindow: settings.contextWindow,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    ...(plan.lastUserRequest !== undefined ? { lastUserRequest: plan.lastUserRequest } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const historyRequest: SummarizeRequest | undefined =
    plan.historyMessages.length > 0 || plan.previousSummary === undefined
      ? {
          ...base,
          kind: 'history',
          messages: plan.historyMessages,
          ...(plan.previousSummary !== undefined ? { previousSummary: plan.previousSummary } : {}),
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
  const summary = joinSummaries(historyResult?.text ?? plan.previousSummary, prefixResult?.text);
  const strategy = worstStrategy(summarizers, [historyResult?.strategy, prefixResult?.strategy]);

  const state: CompactionState = {
    schema: COMPACTION_STATE_SCHEMA,
    version,
    summary,
    firstKeptMessageId: messages[plan.firstKeptIndex]!.id,
    summarizedRange: { fromIndex: 0, toIndex: plan.firstKeptIndex - 1, messageCount: plan.firstKeptIndex },
    prunedToolCallIds: keptToolResults(plan.keptMessages, previous?.prunedToolCallIds ?? []),
    fileOps,
    tokensBefore,
    tokensAfter: 0,
    strategy,
    createdAt,
  };
  state.tokensAfter = toContext(contextTokens(messages, state, countTokens, counter));
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

function pruneOnly(
  messages: readonly Message[],
  plan: CompactionPlan,
  previous: CompactionState | undefined,
  settings: ResolvedSettings,
  measure: (messages: readonly Message[], state: CompactionState) => number,
  context: { version: number; createdAt: string; tokensBefore: number; previousFileOps: FileOperations },
): Omit<CompactionResult, 'trigger'> | undefined {
  const state: CompactionState = {
    schema: COMPACTION_STATE_SCHEMA,
    version: context.version,
    summary: previous?.summary ?? '',
    firstKeptMessageId: previous?.firstKeptMessageId ?? messages[0]!.id,
    summarizedRange: previous?.summarizedRange ?? { fromIndex: 0, toIndex: -1, messageCount: 0 },
    prunedToolCallIds: [...(previous?.prunedToolCallIds ?? []), ...plan.prunableToolCallIds],
    fileOps: context.previousFileOps,
    tokensBefore: context.tokensBefore,
    tokensAfter: 0,
    strategy: 'prune',
    createdAt: context.createdAt,
  };
  state.tokensAfter = measure(messages, state);
  const enough =
    state.tokensAfter <= pruneTargetTokens(settings) &&
    state.tokensAfter <= context.tokensBefore * (1 - settings.minReduction);
  if (!enough) return undefined;
  return {
    state,
    tokensBefore: context.tokensBefore,
    tokensAfter: state.tokensAfter,
    messagesSummarized: 0,
    strategy: 'prune',
    isSplitTurn: false,
    fallbacks: [],
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

/**
 * The stored summary: the history summary, then the split turn's prefix summary
 * — placed before the history summary's verbatim last-request tail, so that the
 * tail stays last and is read back as the request.
 */
function joinSummaries(history: string | undefined, turnPrefix: string | undefined): string {
  if (!turnPrefix) return history ?? '';
  const section = `## Current turn so far\n\n${turnPrefix.trim()}`;
  if (!history) return section;
  const { body, lastRequest } = splitLastRequest(history);
  return appendLastRequest(`${body}\n\n${section}`, lastRequest);
}

function sumTokens(messages: readonly Message[], countTokens: (message: Message) => number): number {
  let total = 0;
  for (const message of messages) total += countTokens(message);
  return total;
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
