import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { parseMessages } from '../messages/parse-messages.js';
import type { Message } from '../messages/types.js';
import type { TokenCache } from '../tokens/create-token-cache.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CallCycle, CountedCall } from './call-cycle.js';
import type { ContextCache } from './context-cache.js';
import type { ConversationState } from './conversation-state.js';
import {
  appendCounted,
  appendsAsIs,
  type CountedHistory,
  type CountedTaken,
  countedCommonLength,
  countedEstimate,
  countedUpperBound,
  countedUsage,
  countHistory,
  lastCountedId,
  mayHoldId,
  takeCounted,
} from './counted-history.js';
import { countedStretch } from './counted-stretch.js';
import { countedPair, usageCoversHistory } from './next-usage-record.js';
import type { SessionPersistence } from './session-persistence.js';
import type { TokenEstimate } from './token-estimate.js';
import type { HistorySource, PreparedContext } from './types.js';
import { waitsForResult } from './waits-for-result.js';

/**
 * Checks a `prepare({ history })` source at the boundary: an object with a whole `length`
 * ≥ 0 and a `messages(from)` function.
 *
 * @throws {InvalidSettingsError} naming what is wrong.
 */
export function checkHistorySource(source: unknown): asserts source is HistorySource {
  const candidate = source as Partial<HistorySource> | null;
  const problem =
    typeof candidate !== 'object' || candidate === null
      ? `must be an object like { length, messages(from) }, got ${candidate === null ? 'null' : typeof candidate}`
      : typeof candidate.messages !== 'function'
        ? 'needs a `messages(from)` function that returns the core messages from that index on'
        : !Number.isInteger(candidate.length) || (candidate.length as number) < 0
          ? `needs a whole \`length\` >= 0 (the number of messages), got ${String(candidate.length)}`
          : undefined;
  if (problem) throw new InvalidSettingsError({ setting: 'prepare.history', problem });
}

/** The session's parts a {@link createSourceSync} works with. */
export type SourceSyncOptions = {
  conversation: ConversationState;
  persistence: SessionPersistence;
  cycle: CallCycle;
  estimate: TokenEstimate;
  context: ContextCache;
  cache: TokenCache;
  counter: TokenCounter;
  /** Whether the session writes its history to the store (then it is never held counted). */
  persistHistory: boolean;
  /** The session's `prepare({ messages })` sync: append, or a branch. */
  sync(messages: readonly Message[]): Promise<void>;
};

/**
 * How a session brings its history in line with a {@link HistorySource} (see {@link createSourceSync}).
 * Each method runs inside one of the session's operations, one at a time in call order
 * (`session-queue.ts`): none of them runs while another is between two of its steps.
 */
export type SourceSync = {
  /**
   * Brings the history in line with `source`. Resolves to the prepared call when it took
   * the fast path over a history held counted, not loaded; otherwise to undefined, with the
   * history loaded and synced, for the session's `prepare` to go on as with `messages`.
   */
  prepare(source: HistorySource): Promise<PreparedContext | undefined>;
  /** Loads a history held counted back from the last source (before anything that reads the messages). */
  load(): Promise<void>;
  /** Forgets the counted history and the last source (after a clear: the history is empty). */
  forget(): void;
  /** After a usage report: lets go of the tail messages the record now covers. */
  settle(): void;
};

/**
 * "Counted, not loaded": a session given its history as a source keeps, while the
 * context is the history itself and a usage record stands for it, only a hash of each
 * message's id and the messages the record does not cover yet (`counted-history.ts`) —
 * eight bytes a message. A call far below the trigger then reads only the new messages: the
 * append-or-branch decision is `planSync`'s over the ids' hashes (from where the source says
 * its messages are unchanged since the last call, when the session can trust it: the
 * same source it was last brought in line with, and nothing else changed the history
 * since), the bound and the call's record are the fast path's over the tail. Anything
 * else — a compaction to consider, an edit, a context tool, `history()` — first loads
 * the messages from the source and goes the full way.
 */
export function createSourceSync(options: SourceSyncOptions): SourceSync {
  const { conversation, persistence, cycle, estimate, context, cache, counter, persistHistory } = options;
  /** The history while it is held counted, not loaded. */
  let counted: CountedHistory | undefined;
  /** The source the history was last brought in line with, and the history's mark right after. */
  let synced: { source: HistorySource; mark: string } | undefined;

  /** Changes whenever the history changes in any way but a sync from a source (epoch and length). */
  const mark = () => `${conversation.epoch}:${counted ? counted.length : conversation.history.length}`;

  /** How many first messages of `source` are those of the history, by the source's word, when it can be taken. */
  function trusted(source: HistorySource): number {
    if (synced && synced.source === source && synced.mark === mark()) return source.length; // the very same again
    const since = source.since;
    if (!since || !synced || synced.source !== since.source || synced.mark !== mark()) return 0;
    return Number.isInteger(since.unchanged) && since.unchanged > 0 ? since.unchanged : 0;
  }

  /**
   * What the call cycle reads of a counted history: the usage record that stands for it and
   * the messages after that record up to this call, taken when the cycle asks for the bound
   * (after it saved a pending usage report, as the full path does). The call's count and
   * estimate are read from what was taken, never from the history, which later calls and
   * reports change (its tail is let go of once a report covers it, and grows with each call):
   * they are this call's figures whenever the caller or its usage report reads them.
   */
  function countedCall(history: CountedHistory, source: HistorySource): CountedCall {
    const length = history.length;
    const lastMessageId = lastCountedId(history);
    let taken: CountedTaken | undefined;
    return {
      length,
      lastMessageId,
      upperBound() {
        const usage = countedUsage(conversation.record, history);
        if (!usage) return undefined;
        taken = takeCounted(history, usage, length, { cache, counter, ratio: estimate.ratio() });
        return countedUpperBound(taken);
      },
      // Read only once `upperBound` cleared the call (the cycle's contract).
      estimate: () => countedEstimate(taken!),
      messages: () => source.messages(0).slice(0, length) as Message[],
    };
  }

  /**
   * Makes `messages` the history as `planSync` makes a branch of a history without a compaction
   * state. The old branch's stretch far below the trigger is learned first, read from `old`,
   * the source the counted history was last brought in line with (as the loaded path learns it
   * from the history it holds): the counted history keeps only the ids' hashes of it.
   */
  async function branchTo(messages: readonly Message[], old: HistorySource | undefined): Promise<void> {
    const branch = parseMessages(messages);
    const held = counted;
    const dropped = { ...conversation.record, state: undefined, usage: undefined, stuckAtHistoryLength: undefined };
    const record = cycle.branchRecord(dropped, (usage) =>
      held && old ? countedStretch(held, old, usage, cache.count) : undefined,
    );
    await persistence.switchBranch(branch, record);
    counted = undefined;
    cycle.reset('branch');
  }

  /** The counted history loaded from the first messages of `source`, which are its messages; a branch when they are others. */
  async function loadFrom(source: HistorySource): Promise<void> {
    const history = counted;
    if (!history) return;
    const all = source.messages(0).slice(0, history.length);
    if (all.length !== history.length || countedCommonLength(history, 0, all) !== all.length) {
      // The source no longer has the counted messages (it broke its word): go on from what it has.
      await branchTo(all, synced?.source);
      synced = { source, mark: mark() };
      return;
    }
    const messages = parseMessages(all);
    counted = undefined;
    conversation.apply({ replace: messages });
    synced = { source, mark: mark() };
  }

  /** The fast path over the loaded history, which it then holds counted; undefined when not taken. */
  async function countLoaded(source: HistorySource): Promise<PreparedContext | undefined> {
    if (persistHistory || conversation.record.state) return undefined;
    const { history, record } = conversation;
    const usage = record.usage;
    const pair = countedPair(usage);
    if (!usage || !pair || usage.stateVersion !== 0) return undefined;
    if (!usageCoversHistory(usage, history)) return undefined;
    // A count taken while a tool call waited for its result is no count to go on from (`waitsForResult`):
    // the loaded history counts its context again where a decision needs it; a counted one could not.
    if (waitsForResult(history, pair.length)) return undefined;
    if (!cycle.countable(history.length, estimate.upperBound()) || !context.isHistory()) return undefined;
    const held = countHistory(history, usage.historyLength);
    const epoch = conversation.epoch;
    const prepared = await cycle.prepareCounted(countedCall(held, source));
    // Only the history it counted is held counted: any change since (none, run in turn) keeps it loaded.
    if (!prepared || conversation.epoch !== epoch || conversation.history.length !== held.length) return prepared;
    counted = held;
    conversation.apply({ replace: [] });
    context.current(); // the context cache lets go of the loaded context (rebuilt, empty, for the new epoch)
    synced = { source, mark: mark() };
    return prepared;
  }

  return {
    async prepare(source) {
      const from = trusted(source);
      const history = counted;
      if (!history) {
        const held = conversation.history.length;
        if (from >= held && source.length >= held) {
          const added = source.messages(held);
          parseMessages(added, { existingIds: conversation.ids });
          await persistence.append(added);
        } else {
          await options.sync(source.messages(0));
        }
        synced = { source, mark: mark() };
        return countLoaded(source);
      }
      const held = history.length;
      const start = Math.min(from, held, source.length);
      const rest = source.messages(start);
      if (countedCommonLength(history, start, rest) < held) {
        // Another id before the end (an edit, a removal, an insert): a branch, as `planSync` makes it.
        await branchTo(start === 0 ? rest : source.messages(0), synced?.source);
        synced = { source, mark: mark() };
        return undefined;
      }
      const added = rest.slice(held - start);
      parseMessages(added);
      if (added.some((message) => mayHoldId(history, message.id))) {
        // A new id whose hash the history holds: checked against the ids themselves, the full way.
        await loadFrom(source);
        parseMessages(added, { existingIds: conversation.ids });
        await persistence.append(added);
        synced = { source, mark: mark() };
        return undefined;
      }
      appendCounted(history, added);
      synced = { source, mark: mark() };
      const prepared = appendsAsIs(added) ? await cycle.prepareCounted(countedCall(history, source)) : undefined;
      if (prepared) return prepared;
      await loadFrom(source);
      return undefined;
    },
    async load() {
      if (counted && synced) await loadFrom(synced.source);
    },
    forget() {
      counted = undefined;
      synced = undefined;
    },
    settle() {
      if (counted) countedUsage(conversation.record, counted);
    },
  };
}
