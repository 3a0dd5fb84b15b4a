import type { Message, MessageUsage } from '../messages/types.js';
import { isUsageOverflow } from '../overflow/index.js';
import { type ResolvedSettings, triggerTokens } from '../settings/compaction-settings.js';
import type { SessionRecord, UsageRecord } from '../store/session-store.js';
import { initialPolicyState, shouldAutoCompact } from './auto-compaction-policy.js';
import type { ContextCache } from './context-cache.js';
import type { ConversationState } from './conversation-state.js';
import {
  carriesCount,
  nextUsageRecord,
  type PreparedCall,
  settledUsageRecord,
  usageCoversHistory,
} from './next-usage-record.js';
import type { CompactionRunner } from './run-compaction.js';
import type { SessionEvents } from './session-events.js';
import type { SessionPersistence } from './session-persistence.js';
import type { TokenEstimate } from './token-estimate.js';
import type { CompactionResult, PreparedContext } from './types.js';

/**
 * A call whose upper-bound estimate is under this share of the trigger skips exact
 * counting before the model call (see `TokenEstimate.upperBound`).
 */
export const LAZY_COUNT_SHARE = 0.8;

/** The session's parts a call cycle works with. */
export type CallCycleOptions = {
  sessionId: string;
  settings: ResolvedSettings;
  modelKey: string;
  conversation: ConversationState;
  estimate: TokenEstimate;
  context: ContextCache;
  persistence: SessionPersistence;
  runner: CompactionRunner;
  events: SessionEvents;
};

/**
 * A history a call is decided on without its old messages ("counted, not loaded",
 * see `counted-history.ts`): what the fast path of {@link CallCycle.prepare} reads of it.
 */
export type CountedCall = {
  /** How many messages the history holds. */
  length: number;
  /** The id of its last message. */
  lastMessageId: string | undefined;
  /** `TokenEstimate.upperBound()` of it: undefined without a usage record that stands for it. */
  upperBound(): number | undefined;
  /** `TokenEstimate.estimate()` of it. */
  estimate(): number;
  /** Its context, which is the history itself (a copy). */
  messages(): Message[];
};

/**
 * A prepared call's count, taken when its usage is recorded: given the usage record the
 * report follows, our count of the call's context, or undefined to leave the count where
 * that record has it.
 */
type LazyCount = (previous: UsageRecord | undefined) => number | undefined;

/** One model call's cycle: the context before it, the usage after it (see {@link createCallCycle}). */
export type CallCycle = {
  /**
   * Starts one `prepare()`: a usage report the store refused is saved again at most once in
   * it, whether the call is decided counted (`prepareCounted`), the full way (`prepare`), or
   * counted first and then the full way.
   */
  beginCall(): void;
  /** Compacts when the policy says so and returns the context for the model. */
  prepare(signal: AbortSignal | undefined): Promise<PreparedContext>;
  /**
   * Before a decision that reads our count or the ratio (a compaction, the exact path): a
   * usage record that calls far below the trigger left lagging catches up — our count of
   * its call in one batch, the stretch's calibration sample — and is saved (a store that
   * refuses it is reported, and the record saved again on the next call).
   */
  settle(): Promise<void>;
  /**
   * The record a branch switch saves (`record`: the new branch's, its usage dropped) with the
   * calibration this session holds — a usage report the store refused included — and, when
   * calls far below the trigger left the usage record lagging, the stretch's sample: what
   * `settle` would learn now, learned before the old branch is replaced (the new branch's
   * calls cannot count it). `count(usage)` is our count of that record's call, read from the
   * old branch; undefined when it cannot be read (nothing is learned). By default it is read
   * from the loaded history, when that is the history the record was made for. Saves nothing:
   * the switch saves the record, so a switch the store refuses learns nothing, and one tried
   * again learns the stretch once.
   */
  branchRecord(record: SessionRecord, count?: (usage: UsageRecord) => number | undefined): SessionRecord;
  /**
   * Whether a call over a history of `length` messages with this upper bound takes the
   * fast path (no compaction asked for or suspected, the bound far below the trigger,
   * not stuck at this length): the rule `prepare` follows, for a caller that holds the
   * history counted, not loaded.
   */
  countable(length: number, bound: number | undefined): boolean;
  /**
   * `prepare`'s fast path over a counted history: the same decision and the same record
   * of the call for its usage report, without the old messages. Resolves to undefined when
   * the call must go the full way (the caller loads the messages and calls `prepare`).
   */
  prepareCounted(call: CountedCall): Promise<PreparedContext | undefined>;
  /**
   * Records the provider's report for the last prepared call. A store that refuses
   * it is reported (`store:error`) and the record saved again on the next call:
   * this never fails the call the model already answered.
   */
  recordUsage(usage: MessageUsage): Promise<void>;
  /**
   * Forgets the last call, the policy state and any pending write (clear, branch switch).
   * A compaction request survives a branch switch (a framework that re-sends its steps in
   * another shape switches branches between the request and the next call); `clear` drops it.
   */
  reset(scope: 'branch' | 'clear'): void;
  /** Asks for a manual compaction at the next `prepare` (before the next model call, not during this one). */
  request(request: CompactionRequest): void;
};

/** A manual compaction waiting for the next `prepare`, e.g. from the model's `compact_context` tool. */
export type CompactionRequest = {
  /** Focus of the summary. */
  instructions?: string;
};

/**
 * The cycle around each model call: the auto-compaction policy state, what the
 * last call was sent (for its usage report), and the usage the store refused.
 */
export function createCallCycle(options: CallCycleOptions): CallCycle {
  const { sessionId, settings, modelKey, conversation, estimate, context, persistence, runner, events } = options;
  const limit = triggerTokens(settings);
  let policy = initialPolicyState();
  /**
   * What the last prepared context was. On the fast path its count is decided when the usage
   * is recorded, from the record it follows: left where that record has it when it can be.
   */
  let prepared: (Omit<PreparedCall, 'counted'> & { counted: number | undefined | LazyCount }) | undefined;
  /** Usage fields the store refused after the model answered; saved again on the next call. */
  let pendingUsage: Pick<SessionRecord, 'usage' | 'calibration'> | undefined;
  /** A manual compaction asked for since the last `prepare`. */
  let requested: CompactionRequest | undefined;
  /** Whether this call saved (or tried to save) the refused usage report again already. */
  let pendingTried = false;

  /** Saves the usage report the store refused, once a call (see `beginCall`). */
  async function savePending(): Promise<void> {
    if (!pendingUsage || pendingTried) return;
    pendingTried = true;
    await saveUsage({ ...conversation.record, ...pendingUsage });
  }

  async function saveUsage(record: SessionRecord): Promise<void> {
    try {
      await persistence.saveRecord(record);
      pendingUsage = undefined;
    } catch (error) {
      pendingUsage = { usage: record.usage, calibration: record.calibration };
      const message = 'the usage report could not be saved; it is saved again on the next call';
      events.emit({ type: 'store:error', sessionId, operation: 'saveRecord', message, error });
    }
  }

  /** Our count of a usage record's call from the loaded history, when it is the history that record was made for. */
  function countLoaded(usage: UsageRecord): number | undefined {
    return usageCoversHistory(usage, conversation.history) ? estimate.counted(usage.historyLength) : undefined;
  }

  /** The record with our usage fields (a report the store refused included) and its usage lagging at this version, if it is. */
  function lagging(): { record: SessionRecord; usage: UsageRecord | undefined } {
    const record = { ...conversation.record, ...pendingUsage };
    const usage = record.usage;
    const lags = usage?.countedLength !== undefined && usage.stateVersion === conversation.version();
    return { record, usage: lags ? usage : undefined };
  }

  async function settle(): Promise<void> {
    const { record, usage } = lagging();
    const counted = usage && countLoaded(usage);
    if (counted === undefined) return;
    const settled = settledUsageRecord(record, counted, modelKey);
    // The store refused this call's save already: the settled record waits for the next.
    if (pendingUsage && pendingTried) pendingUsage = { usage: settled.usage, calibration: settled.calibration };
    else await saveUsage(settled);
  }

  /** The history length last reported as over the trigger with too few messages to compact. */
  let reportedFewAt: number | undefined;

  /** Says once per history length that the context is over the trigger but `minMessages` holds compaction back. */
  function reportTooFewMessages(tokens: number): void {
    const length = conversation.history.length;
    if (tokens <= limit || length >= settings.minMessages || reportedFewAt === length) return;
    reportedFewAt = length;
    const message =
      `the context is ${tokens.toLocaleString('en-US')} tokens, over the trigger of ${limit.toLocaleString('en-US')}, ` +
      `but the history holds ${length} message${length === 1 ? '' : 's'}, fewer than minMessages (${settings.minMessages}): ` +
      'not compacted. Lower settings.minMessages to compact short conversations of large messages.';
    events.emit({ type: 'compaction:error', sessionId, trigger: 'auto', message, tokensBefore: tokens });
  }

  /** The fast path's rule: far below the trigger even at the upper bound, and not stuck at this length. */
  function farBelow(length: number, bound: number | undefined): boolean {
    if (policy.overflowSuspected || bound === undefined || bound > limit * LAZY_COUNT_SHARE) return false;
    return conversation.record.stuckAtHistoryLength !== length;
  }

  /** Whether a call that has not started yet takes the fast path (no manual compaction waits). */
  const countable = (length: number, bound: number | undefined) => !requested && farBelow(length, bound);

  const wantsCompaction = () =>
    shouldAutoCompact(
      {
        tokens: estimate.estimate(),
        historyLength: conversation.history.length,
        stuckAtHistoryLength: conversation.record.stuckAtHistoryLength,
      },
      policy,
      settings,
    );

  function remember(
    messageCount: number,
    counted: number | LazyCount,
    historyLength = conversation.history.length,
    lastMessageId = conversation.lastMessageId(historyLength),
  ): void {
    prepared = {
      historyLength,
      contextMessageCount: messageCount,
      stateVersion: conversation.version(),
      counted,
      ...(lastMessageId !== undefined ? { lastMessageId } : {}),
    };
  }

  return {
    beginCall() {
      pendingTried = false;
    },
    async prepare(signal) {
      await savePending();
      let compaction: CompactionResult | undefined;
      if (requested) {
        const { instructions } = requested;
        requested = undefined;
        const manual = { trigger: 'manual' as const, force: true, ...(instructions ? { instructions } : {}) };
        await settle();
        compaction = await runner.attempt({ ...manual, ...(signal ? { signal } : {}) });
      }
      const bound = policy.overflowSuspected || compaction ? undefined : estimate.upperBound();
      if (farBelow(conversation.history.length, bound)) {
        // Far below the trigger even at the upper bound: no decision needs exact counts
        // now. The call's own are taken when read (`tokens`); our count of the context when
        // a decision reads it (the exact path, a compaction), not when the usage is recorded.
        // The context is copied when read: the cache only grows past `length`, so the copy is
        // this call's context whenever it is taken, and a caller that sends its own messages
        // (`wholeHistory`) never pays for it. Its tokens likewise are this call's, counted when read.
        const current = context.current();
        const length = current.length;
        const historyLength = conversation.history.length;
        const version = conversation.version();
        // No tokenizer call for the record unless it has no count to go on from (a record from
        // before counts were kept): the count catches up when a decision reads it (`settle`).
        remember(length, (previous) =>
          carriesCount(previous, conversation.history, historyLength, version)
            ? undefined
            : estimate.counted(historyLength),
        );
        return lazyContext(
          () => current.slice(0, length),
          estimate.deferredEstimate(),
          context.isHistory() ? { wholeHistory: length } : {},
        );
      }
      await settle();
      if (!compaction && wantsCompaction()) {
        await persistence.adoptStoredState();
        const epoch = conversation.epoch;
        if (wantsCompaction()) {
          const outcome = await runner.autoCompact(policy, signal);
          if (conversation.epoch === epoch) policy = outcome.policy;
          compaction = outcome.result;
        }
      }
      // A copy: the cached context must not change if the caller edits what it gets.
      const messages = context.current().slice();
      const tokens = estimate.estimate();
      if (!compaction) reportTooFewMessages(tokens);
      remember(messages.length, estimate.counted());
      const whole = context.isHistory() ? { wholeHistory: messages.length } : {};
      return compaction ? { messages, tokens, compaction, ...whole } : { messages, tokens, ...whole };
    },
    settle,
    branchRecord(record, count = countLoaded) {
      const current = lagging();
      const counted = current.usage && count(current.usage);
      const { calibration } =
        counted === undefined ? current.record : settledUsageRecord(current.record, counted, modelKey);
      return calibration === undefined ? record : { ...record, calibration };
    },
    countable,
    async prepareCounted(call) {
      await savePending();
      if (!countable(call.length, call.upperBound())) return undefined;
      const historyLength = call.length;
      // The same record of the call as the fast path above; the context is the history itself.
      // Its record holds a count to go on from (`countedUsage`): the call counts nothing.
      remember(historyLength, () => undefined, historyLength, call.lastMessageId);
      return lazyContext(
        () => call.messages(),
        () => call.estimate(),
        { asIs: true },
      );
    },
    async recordUsage(usage) {
      const { inputTokens } = usage;
      if (!prepared || inputTokens === undefined || inputTokens === 0) return;
      if (isUsageOverflow(usage, settings.contextWindow)) policy = { ...policy, overflowSuspected: true };
      // A compaction landed since that call was prepared (a concurrent `compact()`): the report
      // describes a context that is gone, and no count of it can be taken any more.
      if (prepared.stateVersion !== conversation.version()) return;
      const record = { ...conversation.record, ...pendingUsage };
      if (typeof prepared.counted === 'function') prepared = { ...prepared, counted: prepared.counted(record.usage) };
      const call = prepared as PreparedCall;
      await saveUsage(nextUsageRecord(record, call, inputTokens, modelKey));
    },
    reset(scope) {
      policy = initialPolicyState();
      reportedFewAt = undefined;
      prepared = undefined;
      pendingUsage = undefined;
      if (scope === 'clear') requested = undefined;
    },
    request(request) {
      requested = request;
    },
  };
}

/**
 * A prepared context whose `messages` and `tokens` are taken only when first read (a call
 * far below the trigger may never read them), and can be set like plain fields.
 */
function lazyContext(
  readMessages: () => Message[],
  readTokens: () => number,
  fields: Omit<PreparedContext, 'messages' | 'tokens'>,
): PreparedContext {
  let messages: Message[] | undefined;
  let tokens: number | undefined;
  return {
    ...fields,
    get messages() {
      messages ??= readMessages();
      return messages;
    },
    set messages(value) {
      messages = value;
    },
    get tokens() {
      tokens ??= readTokens();
      return tokens;
    },
    set tokens(value) {
      tokens = value;
    },
  };
}
