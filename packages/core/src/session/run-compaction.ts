import { compactWith } from '../compaction/compact-with.js';
import { type ResolvedSettings, triggerTokens } from '../settings/compaction-settings.js';
import { StoreConflictError } from '../store/errors/store-conflict-error.js';
import type { Summarizer } from '../summarize/types.js';
import type { TokenCache } from '../tokens/create-token-cache.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import {
  afterAutoCompaction,
  breakerResumeTokens,
  compactionHelped,
  escalatedKeepRecentTokens,
  type PolicyState,
} from './auto-compaction-policy.js';
import type { ContextCache } from './context-cache.js';
import type { ConversationState } from './conversation-state.js';
import type { SessionEvents } from './session-events.js';
import type { SessionPersistence } from './session-persistence.js';
import type { TokenEstimate } from './token-estimate.js';
import type { CompactionResult, CompactionTrigger } from './types.js';

/** One compaction to attempt. */
export type CompactRequest = {
  trigger: CompactionTrigger;
  force?: boolean;
  keepRecentTokens?: number;
  instructions?: string;
  signal?: AbortSignal;
};

/** What the runner works with: the session's parts. */
export type CompactionRunnerOptions = {
  sessionId: string;
  settings: ResolvedSettings;
  summarizer: Summarizer;
  counter: TokenCounter;
  cache: TokenCache;
  conversation: ConversationState;
  estimate: TokenEstimate;
  context: ContextCache;
  persistence: SessionPersistence;
  events: SessionEvents;
};

/** Runs compactions for a session (see {@link createCompactionRunner}). */
export type CompactionRunner = {
  /**
   * One compaction attempt, with events: every `compaction:start` is followed by
   * `compaction:end` or `compaction:error`. Never throws, except on abort (and then
   * after `compaction:error`). The new state reaches memory only once saved.
   */
  attempt(request: CompactRequest): Promise<CompactionResult | undefined>;
  /**
   * Automatic compaction with the loop guard (escalate once, then mark the history
   * stuck) and the failure breaker (see `afterAutoCompaction`).
   */
  autoCompact(
    policy: PolicyState,
    signal: AbortSignal | undefined,
  ): Promise<{ result?: CompactionResult; policy: PolicyState }>;
};

/** How many times one attempt recomputes after another process's compaction landed first. */
const MAX_CONFLICTS = 8;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The compaction step of a session, over its parts. */
export function createCompactionRunner(options: CompactionRunnerOptions): CompactionRunner {
  const { sessionId, settings, summarizer, counter, cache, conversation, estimate, context, persistence, events } =
    options;

  async function attempt(request: CompactRequest): Promise<CompactionResult | undefined> {
    const startedAt = Date.now();
    // After an overflow the provider reported, the estimate (e.g. from a usage report that
    // left out cached input) may be far too low: judge the compaction on our own count too.
    const tokensBefore =
      request.trigger === 'overflow'
        ? Math.max(estimate.estimate(), estimate.toContextTokens(estimate.counted()))
        : estimate.estimate();
    const messagesBefore = context.current().length;
    const { trigger } = request;
    events.emit({ type: 'compaction:start', sessionId, trigger, messages: messagesBefore, tokens: tokensBefore });
    const fail = (message: string, extra: { tokensAfter?: number; error?: unknown } = {}) => {
      events.emit({ type: 'compaction:error', sessionId, trigger, message, tokensBefore, ...extra });
      return undefined;
    };
    /** Saves another process's compaction beat (see `SessionPersistence.saveRecord`); each recomputes. */
    let conflicts = 0;
    for (let tries = 0; tries < 2; tries += 1) {
      const epochAtStart = conversation.epoch;
      const versionAtStart = conversation.version();
      let result: CompactionResult | undefined;
      try {
        result = await compactWith(conversation.history.slice(), {
          previous: conversation.record.state,
          summarizer,
          settings,
          counting: { counter, countTokens: cache.count, toContextTokens: estimate.toContextTokens },
          tokensBefore,
          trigger,
          force: request.force,
          keepRecentTokens: estimate.keptBudget(request.keepRecentTokens),
          instructions: request.instructions,
          signal: request.signal,
        });
      } catch (error) {
        fail(`compaction failed: ${errorText(error)}`, { error });
        if (request.signal?.aborted) throw error;
        return undefined;
      }
      // The history was replaced meanwhile (branch switch, clear) or another compaction
      // landed: this result describes a conversation that is gone; recompute on the new one.
      if (conversation.epoch !== epochAtStart || conversation.version() !== versionAtStart) continue;
      if (!result) {
        return fail(
          `nothing to compact: ${conversation.history.length} messages, ${tokensBefore} tokens, no cut leaves anything to summarize`,
        );
      }
      if (result.tokensAfter >= tokensBefore) {
        return fail(
          `compaction did not shrink the context (${tokensBefore} → ${result.tokensAfter} tokens); state kept as it was`,
          { tokensAfter: result.tokensAfter },
        );
      }
      try {
        await persistence.saveRecord({ ...conversation.record, state: result.state });
      } catch (error) {
        if (!StoreConflictError.isInstance(error) || conflicts >= MAX_CONFLICTS) {
          return fail(`the compaction could not be saved, so it was not applied: ${errorText(error)}`, { error });
        }
        // Another process compacted first and memory caught up with it: recompute on its
        // state, unless its compaction already brought the context under the trigger.
        conflicts += 1;
        tries -= 1;
        if (!request.force && estimate.estimate() <= triggerTokens(settings)) {
          return fail(
            `another process compacted this conversation first (version ${conversation.version()}); its state was adopted`,
            { tokensAfter: estimate.estimate() },
          );
        }
        continue;
      }
      events.emit({
        type: 'compaction:end',
        sessionId,
        trigger,
        messagesBefore,
        messagesAfter: context.current().length,
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
    return fail('the conversation was replaced twice during compaction (branch switch or clear); gave up for now');
  }

  async function autoCompact(
    policy: PolicyState,
    signal: AbortSignal | undefined,
  ): Promise<{ result?: CompactionResult; policy: PolicyState }> {
    const before = estimate.estimate();
    const epoch = conversation.epoch;
    const version = conversation.version();
    const first = await attempt({ trigger: 'auto', force: policy.overflowSuspected, ...(signal ? { signal } : {}) });
    // Cleared or switched meanwhile: the policy decision was about a conversation that is gone.
    if (conversation.epoch !== epoch) return { ...(first ? { result: first } : {}), policy };
    // Helped by this compaction, or by another process's that was adopted instead.
    const adopted = !first && conversation.version() > version;
    if ((first || adopted) && compactionHelped(before, estimate.estimate(), settings)) {
      return { result: first, policy: afterAutoCompaction(policy, { helped: true, tokens: before }).policy };
    }
    const escalated = await attempt({
      trigger: 'auto',
      force: true,
      keepRecentTokens: escalatedKeepRecentTokens(settings),
      ...(signal ? { signal } : {}),
    });
    const result = escalated ?? first;
    const after = estimate.estimate();
    const helped = compactionHelped(before, after, settings);
    const next = afterAutoCompaction(policy, { helped, tokens: after });
    if (!helped) {
      const limit = `trigger ${triggerTokens(settings)}`;
      // Under the trigger but by less than minReduction is a different failure: say which.
      const what =
        after > triggerTokens(settings)
          ? `could not bring the context under the trigger (${before} → ${after} tokens, ${limit})`
          : `shrank the context by less than ${Math.round(settings.minReduction * 100)}% (${before} → ${after} tokens, ${limit})`;
      try {
        await persistence.saveRecord({ ...conversation.record, stuckAtHistoryLength: conversation.history.length });
      } catch {
        // The loop guard still holds in memory through the failure count; the store keeps the last good record.
      }
      events.emit({
        type: 'compaction:error',
        sessionId,
        trigger: 'auto',
        message: next.opened
          ? `compaction ${what} ${next.policy.failures} times in a row; automatic compaction is paused until the context grows by ${breakerResumeTokens(settings)} tokens`
          : `compaction ${what}; not retrying until the conversation changes`,
        tokensBefore: before,
        tokensAfter: after,
      });
    }
    return { ...(result ? { result } : {}), policy: next.policy };
  }

  return { attempt, autoCompact };
}
