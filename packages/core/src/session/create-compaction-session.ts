import { buildContext, pruneMessage, repairToolPairs } from '../compaction/build-context.js';
import { compact, contextTokens } from '../compaction/compact.js';
import type { CompactionState } from '../compaction/compaction-state.js';
import { parseMessages } from '../messages/parse-messages.js';
import type { Message, MessageUsage } from '../messages/types.js';
import { getContextWindow } from '../models/index.js';
import { isContextOverflowError, isUsageOverflow } from '../overflow/index.js';
import { resolveSettings, triggerTokens } from '../settings/compaction-settings.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionRecord, UsageRecord } from '../store/session-store.js';
import { structuredSummarizer } from '../summarize/index.js';
import { createTokenCache, gptTokenizerCounter, maxMessageTokens, updateCalibration } from '../tokens/index.js';
import type {
  CompactionEvent,
  CompactionResult,
  CompactionSession,
  CompactionSessionOptions,
  CompactionTrigger,
  PreparedContext,
  SessionStats,
} from './types.js';

/**
 * A call whose upper-bound estimate is under this share of the trigger skips exact
 * counting before the model call (see `fastUpperBound`).
 */
const LAZY_COUNT_SHARE = 0.8;

/** Growth (counted tokens) between two calls below which no calibration sample is taken. */
const MIN_CALIBRATION_GROWTH = 500;

type CompactRequest = {
  trigger: CompactionTrigger;
  force?: boolean;
  keepRecentTokens?: number;
  instructions?: string;
  signal?: AbortSignal;
};

/**
 * A conversation with compaction: holds the display history (append-only) and
 * the compaction state, persists both through a `SessionStore`, and before
 * every model call (`prepare`) compacts when the policy says so.
 *
 * - Single-flight: a `prepare()` or `compact()` during a compaction waits for it.
 *   Messages appended during a compaction are kept; a branch switch during one
 *   makes it recompute once.
 * - Loop-proof: when a compaction leaves the context over the trigger or shrinks
 *   it by less than `minReduction`, it escalates once (forced cut), then reports
 *   `compaction:error` and does not compact again until the history changes.
 * - Compaction never breaks the agent: failures are reported as events and the
 *   context is returned uncompacted.
 *
 * Settings are validated here: invalid ones throw `InvalidSettingsError` at once.
 *
 * @example
 * ```ts
 * const session = createCompactionSession({ sessionId: 'chat-1', store: fileStore('.sessions'), model: 'gpt-5' });
 * await session.append({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] });
 * const { messages } = await session.prepare(); // send these to the model
 * ```
 */
export function createCompactionSession(options: CompactionSessionOptions): CompactionSession {
  const { sessionId } = options;
  const store = options.store ?? memoryStore();
  const settings = resolveSettings(options.settings, getContextWindow(options.model));
  const limit = triggerTokens(settings);
  const counter = options.tokenCache?.counter ?? options.counter ?? gptTokenizerCounter();
  const cache = options.tokenCache ?? createTokenCache(counter);
  const summarizer = options.summarizer ?? structuredSummarizer();
  const persistHistory = options.persistHistory ?? true;
  const modelKey = options.model ?? 'default';
  const listeners = new Set<(event: CompactionEvent) => void>();

  let history: Message[] = [];
  const ids = new Map<string, number>();
  let record: SessionRecord = {};
  let loading: Promise<void> | undefined;
  let inflight: Promise<unknown> = Promise.resolve();
  let branch = 0;
  /** The last overflow recovery, to refuse a second one on the same context. */
  let lastOverflowAt: string | undefined;
  let overflowSuspected = false;
  /** Counted tokens of the context for (state version, history length), kept up to date on append. */
  let counted: { version: number; length: number; tokens: number } | undefined;
  /** What the last prepared context was, for `recordUsage`. */
  let prepared:
    | {
        historyLength: number;
        contextMessageCount: number;
        stateVersion: number;
        /** Counted tokens of that context, or how to count them when they were not needed yet. */
        counted: number | (() => number);
        lastMessageId?: string;
      }
    | undefined;

  const version = () => record.state?.version ?? 0;
  /** The last context built, reused when only messages were appended since. */
  let contextCache:
    | { version: number; branch: number; length: number; clean: boolean; messages: Message[] }
    | undefined;

  /**
   * `buildContext(history, state)`, incrementally: when the history only grew
   * since the last build and that context needed no repair (every tool call had
   * its result), the new messages are pruned, repaired and appended to it — so a
   * call costs O(new messages), not O(history).
   */
  function currentContext(): Message[] {
    const cached = contextCache;
    if (cached && cached.version === version() && cached.branch === branch && cached.length === history.length) {
      return cached.messages;
    }
    if (
      cached &&
      cached.clean &&
      cached.version === version() &&
      cached.branch === branch &&
      cached.length < history.length
    ) {
      const pruned = new Set(record.state?.prunedToolCallIds ?? []);
      const tail = history
        .slice(cached.length)
        .map((message) => (pruned.size > 0 ? pruneMessage(message, pruned) : message));
      const repairedTail = repairToolPairs(tail);
      const messages = cached.messages.concat(repairedTail);
      contextCache = { version: version(), branch, length: history.length, clean: repairedTail === tail, messages };
      return messages;
    }
    const built = buildContext(history, record.state);
    // Without a state the builder may return the history array itself, which grows in place.
    const messages = built === history ? history.slice() : built;
    // The builder's output is repaired already; it can take appended messages as they
    // are unless a repair gave a call a synthetic result that a real one may follow.
    const clean = !messages.some(
      (message) => (message.metadata?.compaction as { type?: string } | undefined)?.type === 'synthetic-result',
    );
    contextCache = { version: version(), branch, length: history.length, clean, messages };
    return messages;
  }

  function emit(event: CompactionEvent): void {
    for (const listener of [...listeners, ...(options.onEvent ? [options.onEvent] : [])]) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not break compaction or the agent.
      }
    }
  }

  function load(): Promise<void> {
    loading ??= (async () => {
      const [storedHistory, storedRecord] = await Promise.all([
        persistHistory ? store.loadHistory(sessionId) : Promise.resolve([]),
        store.loadRecord(sessionId),
      ]);
      setHistory(storedHistory);
      record = storedRecord ?? {};
      if (record.state && !ids.has(record.state.firstKeptMessageId) && persistHistory) {
        // The stored state does not belong to the stored history: keep the history, drop the state.
        record = { ...record, state: undefined };
      }
    })();
    return loading;
  }

  function setHistory(messages: readonly Message[]): void {
    history = [...messages];
    ids.clear();
    for (const [index, message] of history.entries()) ids.set(message.id, index);
    counted = undefined;
  }

  async function appendMessages(messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    parseMessages(messages, { existingIds: ids });
    for (const message of messages) {
      ids.set(message.id, history.length);
      history.push(message);
    }
    if (record.stuckAtHistoryLength !== undefined) record = { ...record, stuckAtHistoryLength: undefined };
    if (persistHistory) await store.appendHistory(sessionId, messages);
  }

  /** Brings the history in line with the framework's full list of messages. */
  async function sync(messages: readonly Message[]): Promise<void> {
    let common = 0;
    const shorter = Math.min(history.length, messages.length);
    while (common < shorter && history[common]!.id === messages[common]!.id) common += 1;
    if (common === history.length) {
      await appendMessages(messages.slice(common));
      return;
    }
    // The conversation diverged (an edited or removed message): a new branch.
    parseMessages(messages);
    branch += 1;
    setHistory(messages);
    const state = record.state;
    const stateStillValid =
      state !== undefined && ids.has(state.firstKeptMessageId) && ids.get(state.firstKeptMessageId)! <= common;
    record = {
      ...record,
      state: stateStillValid ? state : undefined,
      usage: undefined,
      stuckAtHistoryLength: undefined,
    };
    counted = undefined;
    if (persistHistory) {
      await store.clear(sessionId);
      await store.appendHistory(sessionId, history);
    }
    await store.saveRecord(sessionId, record);
  }

  function countedTokens(upTo = history.length): number {
    const stateVersion = version();
    const usage = record.usage;
    if (
      !(counted && counted.version === stateVersion && counted.length <= upTo) &&
      usage?.countedTokens !== undefined &&
      usage.stateVersion === stateVersion &&
      usage.historyLength <= upTo &&
      coversHistory(usage)
    ) {
      // The record holds our count of that prefix (saved by this session, or by the one
      // before a restart or an eviction): go on from it instead of recounting the history.
      counted = { version: stateVersion, length: usage.historyLength, tokens: usage.countedTokens };
    }
    if (counted && counted.version === stateVersion && counted.length <= upTo) {
      for (let index = counted.length; index < upTo; index += 1) counted.tokens += cache.count(history[index]!);
      counted.length = upTo;
      return counted.tokens;
    }
    if (upTo < history.length) {
      // Only after a branch switch or a compaction: count that prefix on its own.
      return contextTokens(history.slice(0, upTo), record.state, cache.count, counter);
    }
    counted = {
      version: stateVersion,
      length: history.length,
      tokens: contextTokens(history, record.state, cache.count, counter),
    };
    return counted.tokens;
  }

  /**
   * Hybrid estimate. With usage reported for the current context: the provider's
   * figure plus our count of what was appended since (× the calibrated ratio).
   * After a compaction, until the next report: our count × ratio plus the offset
   * the last report showed (system prompt and tool definitions the messages do not hold).
   */
  function estimateTokens(): number {
    const usage = record.usage;
    if (usage && usage.stateVersion === version() && coversHistory(usage)) {
      let added = 0;
      for (let index = usage.historyLength; index < history.length; index += 1) added += cache.count(history[index]!);
      return usage.inputTokens + Math.round(added * ratio());
    }
    return toContextTokens(countedTokens());
  }

  /**
   * The kept budget in our counter's tokens. Settings speak the model's tokens (the
   * window, the trigger and the estimate are all calibrated), so the budget is divided
   * by the learned ratio; without one (or with `keepRecentMessages`) it stays as set.
   */
  function keptBudget(requested: number | undefined): number | undefined {
    const scale = ratio();
    if (scale === 1 || (requested === undefined && settings.keepRecentMessages !== undefined)) return requested;
    return Math.round((requested ?? settings.keepRecentTokens) / scale);
  }

  /** Whether a usage record was made for a prefix of this very history. */
  function coversHistory(usage: UsageRecord): boolean {
    if (usage.historyLength > history.length) return false;
    return (
      usage.lastMessageId === undefined ||
      usage.historyLength === 0 ||
      history[usage.historyLength - 1]?.id === usage.lastMessageId
    );
  }

  /**
   * A cheap upper bound of the estimate, for calls far from the trigger: the
   * provider's report for the current context plus a strict bound on what was
   * appended since (a byte-level BPE token covers at least one UTF-8 byte, and a
   * UTF-16 unit is at most three bytes). Messages counted already use their count.
   * Undefined without a report for this history (then the exact path runs).
   */
  function fastUpperBound(): number | undefined {
    const usage = record.usage;
    if (!usage || usage.stateVersion !== version() || !coversHistory(usage) || overflowSuspected) return undefined;
    let added = 0;
    for (let index = usage.historyLength; index < history.length; index += 1) {
      const message = history[index]!;
      added += cache.peek?.(message.id) ?? maxMessageTokens(message);
    }
    return usage.inputTokens + Math.ceil(added * Math.max(1, ratio()));
  }

  function ratio(): number {
    return record.calibration?.[modelKey] ?? 1;
  }

  /** Counted tokens → what the provider will report, from the last report's offset. */
  function toContextTokens(countedContext: number): number {
    const usage = record.usage;
    const offset =
      usage?.countedTokens !== undefined
        ? Math.max(0, usage.inputTokens - Math.round(usage.countedTokens * ratio()))
        : 0;
    return Math.round(countedContext * ratio()) + offset;
  }

  async function saveRecord(): Promise<void> {
    await store.saveRecord(sessionId, record);
  }

  /** One compaction attempt, with events; never throws (except on abort). */
  async function attempt(request: CompactRequest): Promise<CompactionResult | undefined> {
    const startedAt = Date.now();
    const tokensBefore = estimateTokens();
    const messagesBefore = currentContext().length;
    emit({
      type: 'compaction:start',
      sessionId,
      trigger: request.trigger,
      messages: messagesBefore,
      tokens: tokensBefore,
    });
    for (let tries = 0; tries < 2; tries += 1) {
      const snapshot = history.slice();
      const branchAtStart = branch;
      let result: CompactionResult | undefined;
      try {
        result = await compact(snapshot, {
          previous: record.state,
          summarizer,
          settings,
          counter,
          countTokens: cache.count,
          toContextTokens,
          tokensBefore,
          trigger: request.trigger,
          force: request.force,
          keepRecentTokens: keptBudget(request.keepRecentTokens),
          instructions: request.instructions,
          signal: request.signal,
        });
      } catch (error) {
        if (request.signal?.aborted) throw error;
        emit({
          type: 'compaction:error',
          sessionId,
          trigger: request.trigger,
          message: `compaction failed: ${error instanceof Error ? error.message : String(error)}`,
          tokensBefore,
          error,
        });
        return undefined;
      }
      if (branch !== branchAtStart) continue; // the history changed branch meanwhile: recompute on the new one
      if (!result) {
        emit({
          type: 'compaction:error',
          sessionId,
          trigger: request.trigger,
          message: `nothing to compact: ${history.length} messages, ${tokensBefore} tokens, no cut leaves anything to summarize`,
          tokensBefore,
        });
        return undefined;
      }
      if (result.tokensAfter >= tokensBefore) {
        emit({
          type: 'compaction:error',
          sessionId,
          trigger: request.trigger,
          message: `compaction did not shrink the context (${tokensBefore} → ${result.tokensAfter} tokens); state kept as it was`,
          tokensBefore,
          tokensAfter: result.tokensAfter,
        });
        return undefined;
      }
      record = { ...record, state: result.state };
      counted = undefined;
      await saveRecord();
      emit({
        type: 'compaction:end',
        sessionId,
        trigger: request.trigger,
        messagesBefore,
        messagesAfter: currentContext().length,
        tokensBefore,
        tokensAfter: result.tokensAfter,
        messagesSummarized: result.messagesSummarized,
        strategy: result.strategy,
        fallbacks: result.fallbacks,
        durationMs: Date.now() - startedAt,
        result,
      });
      return result;
    }
    emit({
      type: 'compaction:error',
      sessionId,
      trigger: request.trigger,
      message: 'the conversation changed branch twice during compaction; gave up for now',
      tokensBefore,
    });
    return undefined;
  }

  /** Auto-compaction with the loop guard: escalate once, then stop and report. */
  async function autoCompact(signal: AbortSignal | undefined): Promise<CompactionResult | undefined> {
    const before = estimateTokens();
    const first = await attempt({ trigger: 'auto', force: overflowSuspected, ...(signal ? { signal } : {}) });
    overflowSuspected = false;
    if (first && helped(before, estimateTokens())) return first;
    const escalated = await attempt({
      trigger: 'auto',
      force: true,
      keepRecentTokens: Math.floor(Math.min(settings.keepRecentTokens, settings.contextWindow / 5) / 2),
      ...(signal ? { signal } : {}),
    });
    const result = escalated ?? first;
    const after = estimateTokens();
    if (!helped(before, after)) {
      record = { ...record, stuckAtHistoryLength: history.length };
      await saveRecord();
      emit({
        type: 'compaction:error',
        sessionId,
        trigger: 'auto',
        message: `compaction could not bring the context under the trigger (${before} → ${after} tokens, trigger ${limit}); not retrying until the conversation changes`,
        tokensBefore: before,
        tokensAfter: after,
      });
    }
    return result;
  }

  /**
   * Before compacting, looks for a newer state another process saved to a shared
   * store for this same history; adopting it avoids compacting the same span twice.
   */
  async function adoptNewerStoredState(): Promise<boolean> {
    const stored = await store.loadRecord(sessionId);
    const state = stored?.state;
    if (!state || state.version <= version() || !ids.has(state.firstKeptMessageId)) return false;
    record = { ...record, state };
    counted = undefined;
    return true;
  }

  function helped(before: number, after: number): boolean {
    return after <= limit && after <= before * (1 - settings.minReduction);
  }

  function singleFlight<T>(task: () => Promise<T>): Promise<T> {
    const run = inflight.then(task, task);
    inflight = run.catch(() => undefined);
    return run;
  }

  function shouldAutoCompact(tokens: number): boolean {
    if (record.stuckAtHistoryLength === history.length) return false;
    if (overflowSuspected) return true;
    return tokens > limit && history.length >= settings.minMessages;
  }

  const session: CompactionSession = {
    sessionId,
    async append(messages) {
      await load();
      await appendMessages(Array.isArray(messages) ? messages : [messages as Message]);
    },
    async prepare(prepareOptions = {}) {
      await load();
      if (prepareOptions.messages) await sync(prepareOptions.messages);
      if (record.state && !ids.has(record.state.firstKeptMessageId)) {
        // The stored state summarizes another branch of this conversation: start over on this one.
        record = { ...record, state: undefined, usage: undefined };
        counted = undefined;
        await saveRecord();
      }
      return singleFlight(async (): Promise<PreparedContext> => {
        const bound = fastUpperBound();
        if (
          bound !== undefined &&
          bound <= limit * LAZY_COUNT_SHARE &&
          record.stuckAtHistoryLength !== history.length
        ) {
          // Far below the trigger even at the upper bound: no decision needs exact counts
          // now. They are taken when read (`tokens`) or when the usage is recorded.
          const messages = currentContext().slice();
          const historyLength = history.length;
          let tokens: number | undefined;
          prepared = {
            historyLength,
            contextMessageCount: messages.length,
            stateVersion: version(),
            counted: () => countedTokens(historyLength),
            ...(historyLength > 0 ? { lastMessageId: history[historyLength - 1]!.id } : {}),
          };
          return {
            messages,
            get tokens() {
              tokens ??= estimateTokens();
              return tokens;
            },
          };
        }
        let compaction: CompactionResult | undefined;
        if (shouldAutoCompact(estimateTokens())) {
          await adoptNewerStoredState();
          if (shouldAutoCompact(estimateTokens())) compaction = await autoCompact(prepareOptions.signal);
        }
        // A copy: the cached context must not change if the caller edits what it gets.
        const messages = currentContext().slice();
        const tokens = estimateTokens();
        prepared = {
          historyLength: history.length,
          contextMessageCount: messages.length,
          stateVersion: version(),
          counted: countedTokens(),
          ...(history.length > 0 ? { lastMessageId: history[history.length - 1]!.id } : {}),
        };
        return compaction ? { messages, tokens, compaction } : { messages, tokens };
      });
    },
    async recordUsage(usage: MessageUsage) {
      await load();
      if (!prepared || usage.inputTokens === undefined || !(usage.inputTokens > 0)) return;
      if (isUsageOverflow(usage, settings.contextWindow)) overflowSuspected = true;
      if (typeof prepared.counted === 'function') prepared = { ...prepared, counted: prepared.counted() };
      const preparedCounted = prepared.counted as number;
      const previous = record.usage;
      let calibration = record.calibration;
      // The ratio is learned from growth between two calls on the same compaction
      // version, so that fixed overhead (tool definitions) does not skew it.
      if (previous?.countedTokens !== undefined && previous.stateVersion === prepared.stateVersion) {
        const grownCounted = preparedCounted - previous.countedTokens;
        const grownReported = usage.inputTokens - previous.inputTokens;
        if (grownCounted >= MIN_CALIBRATION_GROWTH) {
          const updated = updateCalibration(calibration?.[modelKey], grownReported, grownCounted);
          if (updated !== undefined) calibration = { ...calibration, [modelKey]: updated };
        }
      }
      record = {
        ...record,
        usage: {
          inputTokens: usage.inputTokens,
          contextMessageCount: prepared.contextMessageCount,
          historyLength: prepared.historyLength,
          stateVersion: prepared.stateVersion,
          countedTokens: preparedCounted,
          ...(prepared.lastMessageId !== undefined ? { lastMessageId: prepared.lastMessageId } : {}),
        },
        ...(calibration !== undefined ? { calibration } : {}),
      };
      await saveRecord();
    },
    async compact(compactOptions = {}) {
      await load();
      return singleFlight(() =>
        attempt({
          trigger: 'manual',
          force: true,
          ...(compactOptions.keepRecentTokens !== undefined
            ? { keepRecentTokens: compactOptions.keepRecentTokens }
            : {}),
          ...(compactOptions.instructions ? { instructions: compactOptions.instructions } : {}),
          ...(compactOptions.signal ? { signal: compactOptions.signal } : {}),
        }),
      );
    },
    async recoverFromOverflow(error, recoverOptions = {}) {
      await load();
      if (!isContextOverflowError(error)) return false;
      return singleFlight(async () => {
        const marker = `${history.length}:${version()}`;
        if (lastOverflowAt === marker) return false; // already recovered on this exact context: surface the error
        const result = await attempt({
          trigger: 'overflow',
          force: true,
          keepRecentTokens: Math.floor(settings.contextWindow / 5),
          ...(recoverOptions.signal ? { signal: recoverOptions.signal } : {}),
        });
        lastOverflowAt = `${history.length}:${version()}`;
        return result !== undefined;
      });
    },
    async context() {
      await load();
      return currentContext().slice();
    },
    async history() {
      await load();
      return history.slice();
    },
    async state(): Promise<CompactionState | undefined> {
      await load();
      return record.state;
    },
    async stats(): Promise<SessionStats> {
      await load();
      const contextTokensNow = estimateTokens();
      return {
        contextTokens: contextTokensNow,
        contextWindow: settings.contextWindow,
        percentUsed: Math.round((contextTokensNow / settings.contextWindow) * 1000) / 10,
        triggerTokens: limit,
        compactions: version(),
        historyMessages: history.length,
        contextMessages: currentContext().length,
      };
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async clear() {
      await load();
      await store.clear(sessionId);
      setHistory([]);
      record = {};
      prepared = undefined;
      // A new conversation: the incremental context must not carry the old one's messages.
      branch += 1;
      contextCache = undefined;
      lastOverflowAt = undefined;
    },
  };
  return session;
}
