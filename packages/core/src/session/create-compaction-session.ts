import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { parseMessages } from '../messages/parse-messages.js';
import type { Message } from '../messages/types.js';
import { getContextWindow } from '../models/index.js';
import { isContextOverflowError } from '../overflow/index.js';
import { checkCompactOptions } from '../settings/check-compact-options.js';
import { checkEventListener } from '../settings/check-event-listener.js';
import { checkSessionOptions } from '../settings/check-session-options.js';
import { resolveSettings, triggerTokens } from '../settings/compaction-settings.js';
import { memoryStore } from '../store/memory-store.js';
import { structuredSummarizer } from '../summarize/index.js';
import { createTokenCache, gptTokenizerCounter } from '../tokens/index.js';
import { overflowKeepRecentTokens } from './auto-compaction-policy.js';
import { createCallCycle } from './call-cycle.js';
import { createContextCache } from './context-cache.js';
import { createConversationState } from './conversation-state.js';
import { checkUsage } from './next-usage-record.js';
import { planSync } from './plan-sync.js';
import { createCompactionRunner } from './run-compaction.js';
import { createSessionEvents } from './session-events.js';
import { createSessionPersistence } from './session-persistence.js';
import { createSessionQueue } from './session-queue.js';
import { checkHistorySource, createSourceSync } from './source-sync.js';
import { createTokenEstimate } from './token-estimate.js';
import { compactionTracing } from './trace-compaction.js';
import type { CompactionSession, CompactionSessionOptions } from './types.js';

/**
 * A conversation with compaction: holds the display history (append-only) and
 * the compaction state, persists both through a `SessionStore`, and before
 * every model call (`prepare`) compacts when the policy says so. It orchestrates
 * named parts: the conversation state (`conversation-state.ts`, changed only by
 * the persistence step `session-persistence.ts` once the store accepted), the
 * token estimate (`token-estimate.ts`), the policy (`auto-compaction-policy.ts`),
 * the compaction step (`run-compaction.ts`) and the context cache (`context-cache.ts`).
 *
 * - One operation at a time, in call order: overlapping calls (a `recordUsage()` not
 *   awaited before the next `prepare()`, two `prepare()`s, a `compact()` during a call)
 *   give the history, context and record the same calls give one after another, and
 *   a usage report is the call's prepared before it. While a compaction waits for its
 *   summarizer, `append()`, `clear()` and the reads called then run at once: messages
 *   appended during a compaction are kept, and a clear during one makes it recompute
 *   on the new conversation.
 * - Loop-proof: when a compaction leaves the context over the trigger or shrinks
 *   it by less than `minReduction`, it escalates once (forced cut), then reports
 *   `compaction:error` and does not compact again until the history changes;
 *   after three such failures in a row it pauses until the context has grown.
 * - Compaction never breaks the agent: failures (summarizer or store) are
 *   reported as events and the context is returned uncompacted. A usage report
 *   the store refuses is reported (`store:error`) and saved again on the next call.
 * - Nothing is lost: a failed store write leaves memory as it was and throws the
 *   store's own error (`append`, branch switches).
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
  checkSessionOptions(options); // a typed error naming the option, before anything is made
  const { sessionId } = options;
  const store = options.store ?? memoryStore();
  const settings = resolveSettings(options.settings, getContextWindow(options.model));
  const limit = triggerTokens(settings);
  const counter = options.tokenCache?.counter ?? options.counter ?? gptTokenizerCounter();
  const cache = options.tokenCache ?? createTokenCache(counter);
  const modelKey = options.model ?? 'default';
  const conversation = createConversationState();
  const events = createSessionEvents(options.onEvent);
  // A private memory store has no other reader: copying the history into it only doubles the heap.
  const persistHistory = options.persistHistory ?? options.store !== undefined;
  const tracing = compactionTracing({ sessionId, events, conversation, counter });
  const persistence = tracing.persistence(createSessionPersistence({ store, sessionId, persistHistory, conversation }));
  const estimate = createTokenEstimate({ conversation, settings, cache, counter, modelKey });
  const context = createContextCache(conversation, { historyTools: settings.historyTools });
  const queue = createSessionQueue();
  const summarizer = queue.watch(options.summarizer ?? structuredSummarizer());
  const runner = tracing.runner(
    createCompactionRunner({
      ...{ sessionId, settings, summarizer, counter, cache },
      ...{ conversation, estimate, context, persistence, events },
    }),
  );

  const cycle = createCallCycle({
    ...{ sessionId, settings, modelKey, conversation, estimate, context, persistence, runner, events },
  });
  let loading: Promise<void> | undefined;
  /** The last overflow recovery, to refuse a second one on the same context. */
  let lastOverflowAt: string | undefined;

  function load(): Promise<void> {
    if (loading) return loading;
    const run = persistence.load((error) => {
      const message = 'the stored record is invalid and was set aside; going on from the history';
      events.emit({ type: 'store:error', sessionId, operation: 'loadRecord', message, error });
    });
    loading = run;
    // A load that failed (e.g. an unreadable disk) is tried again on the next call.
    run.catch(() => {
      if (loading === run) loading = undefined;
    });
    return run;
  }

  async function sync(messages: readonly Message[]): Promise<void> {
    const plan = planSync(conversation.history, messages, conversation.record);
    if (plan.kind === 'append') {
      parseMessages(plan.messages, { existingIds: conversation.ids });
      await persistence.append(plan.messages);
      return;
    }
    // The old branch is still the history: a stretch far below the trigger left uncounted is learned from it now.
    await persistence.switchBranch(plan.history, cycle.branchRecord(plan.record));
    cycle.reset('branch');
  }

  const sources = createSourceSync({
    ...{ conversation, persistence, cycle, estimate, context, cache, counter, persistHistory, sync },
  });

  /** Loads the record, then the messages of a history held counted (for whatever reads them). */
  async function loadAll(): Promise<void> {
    await load();
    await sources.load();
  }

  return {
    sessionId,
    append(messages) {
      return queue.run(async () => {
        await loadAll();
        const list = Array.isArray(messages) ? messages : [messages as Message];
        parseMessages(list, { existingIds: conversation.ids });
        await persistence.append(list);
      }, true);
    },
    async prepare(prepareOptions = {}) {
      const { history: source, messages, signal } = prepareOptions;
      if (source && messages) {
        const problem = 'takes the history as `messages` or as a `history` source, not both: pass one of them';
        throw new InvalidSettingsError({ setting: 'prepare', problem });
      }
      if (source !== undefined) checkHistorySource(source);
      return queue.run(async () => {
        cycle.beginCall();
        await load();
        if (source) {
          const counted = await sources.prepare(source);
          if (counted) return counted;
        } else {
          await sources.load();
          if (messages) await sync(messages);
        }
        const state = conversation.record.state;
        if (state && !conversation.ids.has(state.firstKeptMessageId)) {
          // The stored state summarizes another branch of this conversation: start over on this one.
          await persistence.saveRecord({ ...conversation.record, state: undefined, usage: undefined });
        }
        return cycle.prepare(signal);
      });
    },
    async recordUsage(usage) {
      checkUsage(usage);
      return queue.run(async () => {
        await load();
        await cycle.recordUsage(usage);
        sources.settle();
      });
    },
    async compact(compactOptions = {}) {
      checkCompactOptions(compactOptions);
      return queue.run(async () => {
        await loadAll();
        await cycle.settle();
        return runner.attempt({
          trigger: 'manual',
          force: true,
          ...(compactOptions.keepRecentTokens !== undefined
            ? { keepRecentTokens: compactOptions.keepRecentTokens }
            : {}),
          ...(compactOptions.instructions ? { instructions: compactOptions.instructions } : {}),
          ...(compactOptions.signal ? { signal: compactOptions.signal } : {}),
        });
      });
    },
    async recoverFromOverflow(error, recoverOptions = {}) {
      if (!isContextOverflowError(error)) return false;
      const marker = () => `${conversation.epoch}:${conversation.history.length}:${conversation.version()}`;
      return queue.run(async () => {
        await loadAll();
        if (lastOverflowAt === marker()) return false; // already recovered on this exact context: surface the error
        await cycle.settle();
        const result = await runner.attempt({
          trigger: 'overflow',
          force: true,
          keepRecentTokens: overflowKeepRecentTokens(settings),
          ...(recoverOptions.signal ? { signal: recoverOptions.signal } : {}),
        });
        lastOverflowAt = marker();
        return result !== undefined;
      });
    },
    context() {
      return queue.run(async () => {
        await loadAll();
        return context.current().slice();
      }, true);
    },
    history() {
      return queue.run(async () => {
        await loadAll();
        return conversation.history.slice();
      }, true);
    },
    state() {
      return queue.run(async () => {
        await load();
        return conversation.record.state;
      }, true);
    },
    stats() {
      return queue.run(async () => {
        await loadAll();
        const contextTokens = estimate.estimate();
        return {
          contextTokens,
          contextWindow: settings.contextWindow,
          percentUsed: Math.round((contextTokens / settings.contextWindow) * 1000) / 10,
          triggerTokens: limit,
          compactions: conversation.version(),
          historyMessages: conversation.history.length,
          contextMessages: context.current().length,
        };
      }, true);
    },
    requestCompaction(request = {}) {
      // In call order: it asks the next prepare() called after it, whatever runs before.
      void queue.run(async () => cycle.request(request));
    },
    on(...args: unknown[]) {
      return events.on(checkEventListener(args));
    },
    clear() {
      return queue.run(async () => {
        await load();
        await persistence.clear();
        sources.forget();
        cycle.reset('clear');
        lastOverflowAt = undefined;
      }, true);
    },
  };
}
