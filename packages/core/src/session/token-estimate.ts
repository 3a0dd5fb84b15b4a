import { contextTokens } from '../compaction/compact.js';
import type { Message } from '../messages/types.js';
import type { ResolvedSettings } from '../settings/compaction-settings.js';
import type { UsageRecord } from '../store/session-store.js';
import type { TokenCache } from '../tokens/create-token-cache.js';
import { calibratedTokens, estimateContextTokens } from '../tokens/estimate-context-tokens.js';
import { maxMessageTokens } from '../tokens/max-message-tokens.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { ConversationState } from './conversation-state.js';
import { countedPair, usageCoversHistory } from './next-usage-record.js';
import { waitsForResult } from './waits-for-result.js';

/** The session's token figures, all in the provider's tokens unless named `counted`. */
export type TokenEstimate = {
  /**
   * Our own count (before calibration) of the context built from the first
   * `upTo` history messages; kept up to date incrementally for the whole history.
   */
  counted(upTo?: number): number;
  /**
   * The hybrid estimate (`estimateContextTokens`): with usage reported for the
   * current context, the provider's figure plus our count of what was appended
   * since (× the calibrated ratio); otherwise our count of the context, calibrated.
   */
  estimate(): number;
  /**
   * `estimate()` of the context as it is now, computed only when the returned function is
   * first called: it reads the history, usage record and ratio of this moment, whatever the
   * session appends, records or replaces before then (a prepared call's own `tokens`).
   */
  deferredEstimate(): () => number;
  /** Counted tokens → what the provider will report (ratio, plus the last report's offset). */
  toContextTokens(counted: number): number;
  /**
   * A cheap upper bound of the estimate for calls far from the trigger: with a report for
   * this history, its figure plus a bound of what came after; without one, our count so
   * far plus a bound of what came after it. Undefined when neither is there (then the
   * exact path runs and counts).
   */
  upperBound(): number | undefined;
  /** The kept budget in our counter's tokens (settings speak the provider's tokens). */
  keptBudget(requested: number | undefined): number | undefined;
  /** The learned provider-to-counter ratio for this model (1 until learned). */
  ratio(): number;
};

/** Options of {@link createTokenEstimate}. */
export type TokenEstimateOptions = {
  conversation: ConversationState;
  settings: ResolvedSettings;
  /** Per-message counts, built on `counter`. */
  cache: TokenCache;
  counter: TokenCounter;
  /** Key of the calibration ratio in the record. */
  modelKey: string;
};

/**
 * The one token estimate of a session: provider usage + our counts + calibration
 * + upper bounds, over the conversation's current history and record. Holds only
 * a memo of the counted context, keyed by (epoch, compaction version).
 */
export function createTokenEstimate(options: TokenEstimateOptions): TokenEstimate {
  const { conversation, settings, cache, counter, modelKey } = options;
  /** How the context is built (the summary's closing line depends on `historyTools`). */
  const built = { historyTools: settings.historyTools };
  let memo: { epoch: number; version: number; length: number; tokens: number } | undefined;
  /** Without a report: the bound of the history's messages from `from` (the memo's length then) to `length`. */
  let bounded: { epoch: number; version: number; from: number; length: number; sum: number } | undefined;

  const ratio = () => conversation.record.calibration?.[modelKey] ?? 1;

  /** The usage record when it describes the current context, else undefined. */
  function currentUsage(): UsageRecord | undefined {
    const usage = conversation.record.usage;
    if (!usage || usage.stateVersion !== conversation.version()) return undefined;
    return usageCoversHistory(usage, conversation.history) ? usage : undefined;
  }

  function counted(upTo = conversation.history.length): number {
    const { history, epoch } = conversation;
    const version = conversation.version();
    const fresh = memo && memo.epoch === epoch && memo.version === version && memo.length <= upTo;
    const pair = countedPair(currentUsage());
    if (pair && pair.length <= upTo && (!fresh || memo!.length < pair.length)) {
      // The record holds our count of a prefix (saved by this session, or by the one before a
      // restart or an eviction; behind its last call when calls far below the trigger left it
      // there): go on from it instead of recounting the history, the stretch after it in one batch.
      memo = { epoch, version, length: pair.length, tokens: pair.tokens };
    }
    if (
      memo &&
      memo.epoch === epoch &&
      memo.version === version &&
      memo.length <= upTo &&
      goesOn(history, memo.length, upTo)
    ) {
      for (let index = memo.length; index < upTo; index += 1) memo.tokens += cache.count(history[index]!);
      memo.length = upTo;
      return memo.tokens;
    }
    const state = conversation.record.state;
    if (upTo < history.length) {
      // Only after a branch switch or a compaction: count that prefix on its own. A state
      // whose kept message lies past the prefix came later and was not in that context.
      const kept = state ? conversation.ids.get(state.firstKeptMessageId) : undefined;
      const applies = kept !== undefined && kept < upTo;
      return contextTokens(history.slice(0, upTo), applies ? state : undefined, cache.count, counter, built);
    }
    memo = {
      epoch,
      version,
      length: history.length,
      tokens: contextTokens(history, state, cache.count, counter, built),
    };
    return memo.tokens;
  }

  /** What the provider counts beside the messages, from an exact pair: our count and its figure of one call. */
  function offsetFor(scale: number): number {
    const pair = countedPair(conversation.record.usage);
    return pair ? Math.max(0, pair.inputTokens - calibratedTokens(pair.tokens, scale)) : 0;
  }

  function toContextTokens(countedContext: number): number {
    const scale = ratio();
    return calibratedTokens(countedContext, scale, offsetFor(scale));
  }

  return {
    counted,
    toContextTokens,
    ratio,
    estimate() {
      const usage = currentUsage();
      if (usage) {
        return estimateContextTokens(conversation.history, {
          counter,
          cache,
          ratio: ratio(),
          lastUsage: { inputTokens: usage.inputTokens, messageCount: usage.historyLength },
        });
      }
      return toContextTokens(counted());
    },
    upperBound() {
      const usage = currentUsage();
      // A byte-level BPE token covers at least one UTF-8 byte, and a UTF-16 unit is at
      // most three bytes; messages counted already use their count.
      const { history } = conversation;
      if (!usage) {
        // No report for this context: our count so far (the memo) plus a bound of what came after it.
        if (!memo || memo.epoch !== conversation.epoch || memo.version !== conversation.version()) return undefined;
        if (memo.length > history.length) return undefined;
        // The bound of the messages after the memo goes on from the last call's (each message once).
        const fromMemo =
          bounded?.epoch === memo.epoch && bounded.version === memo.version && bounded.from === memo.length;
        if (!fromMemo || bounded!.length > history.length) {
          bounded = { epoch: memo.epoch, version: memo.version, from: memo.length, length: memo.length, sum: 0 };
        }
        const tail = bounded!;
        for (; tail.length < history.length; tail.length += 1) {
          const message = history[tail.length]!;
          tail.sum += cache.peek?.(message.id) ?? maxMessageTokens(message);
        }
        return toContextTokens(memo.tokens + tail.sum);
      }
      let added = 0;
      for (let index = usage.historyLength; index < history.length; index += 1) {
        const message = history[index]!;
        added += cache.peek?.(message.id) ?? maxMessageTokens(message);
      }
      return usage.inputTokens + Math.ceil(added * Math.max(1, ratio()));
    },
    deferredEstimate() {
      const usage = currentUsage();
      // The history array only grows in place (a replacement is a new array): its first
      // `length` messages stay this moment's.
      const { history } = conversation;
      const length = history.length;
      const scale = ratio();
      if (!usage) {
        const known =
          memo?.epoch === conversation.epoch && memo.version === conversation.version() && memo.length <= length;
        if (!known) {
          const tokens = toContextTokens(counted());
          return () => tokens;
        }
        // Our count so far and this moment's offset; the messages after the count are counted when read.
        const base = memo!.tokens;
        const from = memo!.length;
        const offset = offsetFor(scale);
        const state = conversation.record.state;
        return () => {
          if (!goesOn(history, from, length)) {
            // A count that cannot go on message by message: this moment's context counted again.
            const counted = contextTokens(history.slice(0, length), state, cache.count, counter, built);
            return calibratedTokens(counted, scale, offset);
          }
          let tokens = base;
          for (let index = from; index < length; index += 1) tokens += cache.count(history[index]!);
          return calibratedTokens(tokens, scale, offset);
        };
      }
      return () => {
        let added = 0;
        for (let index = usage.historyLength; index < length; index += 1) added += cache.count(history[index]!);
        return usage.inputTokens + calibratedTokens(added, scale);
      };
    },
    keptBudget(requested) {
      const scale = ratio();
      if (scale === 1 || (requested === undefined && settings.keepRecentMessages !== undefined)) return requested;
      return Math.round((requested ?? settings.keepRecentTokens) / scale);
    },
  };
}

/**
 * Whether a count of the first `from` messages of `history` can go on message by message to
 * `to`: not when either end has a tool call waiting for its result (see `waitsForResult`) — a
 * count taken then holds a synthetic result the real one replaces, and a context that ends so
 * gets one no message holds. Then the context is counted again.
 */
function goesOn(history: readonly Message[], from: number, to: number): boolean {
  return from === to || (!waitsForResult(history, from) && !waitsForResult(history, to));
}
