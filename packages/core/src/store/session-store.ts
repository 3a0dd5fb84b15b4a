import type { CompactionState } from '../compaction/compaction-state.js';
import type { Message } from '../messages/types.js';
import type { StoreConflictError } from './errors/store-conflict-error.js';
import type { StoreError } from './errors/store-error.js';

/** The provider-reported usage of the last model call, for hybrid token estimation. */
export type UsageRecord = {
  /** Input tokens the provider reported for the call. */
  inputTokens: number;
  /** How many context messages the call was sent (the context, not the display history). */
  contextMessageCount: number;
  /** The display-history length when the call was prepared. */
  historyLength: number;
  /** The compaction version that context was built from (0 = none). */
  stateVersion: number;
  /**
   * Our own count (before calibration) of the call's whole context, to learn the provider's
   * offset and ratio. Absent while the count lags the call (see `countedPrefixTokens`): a
   * release before the lagging count reads it as covering `historyLength`, so it is never
   * written for fewer messages.
   */
  countedTokens?: number;
  /**
   * How many first history messages `countedPrefixTokens` covers, when fewer than
   * `historyLength`: a call decided far below the trigger records the provider's figure
   * and leaves our count where it was (it catches up when a decision reads it). Set
   * with `countedPrefixTokens`, `countedInputTokens` and `reportsSinceCounted`, or not at all.
   * @default historyLength (`countedTokens` covers the call's whole context)
   */
  countedLength?: number;
  /**
   * Our own count (before calibration) of the context over the first `countedLength`
   * messages, in place of `countedTokens` while the count lags.
   * @default countedTokens
   */
  countedPrefixTokens?: number;
  /**
   * The provider's input tokens for the call at `countedLength`: with `countedPrefixTokens`,
   * an exact pair (the offset of `toContextTokens`, the start of a calibration stretch).
   * @default inputTokens
   */
  countedInputTokens?: number;
  /**
   * How many usage reports were recorded since the one our count was taken at (1 or
   * more): the per-call calibration samples one sample over that stretch stands for.
   * @default 0
   */
  reportsSinceCounted?: number;
  /**
   * Id of the last history message the call covered; the usage applies only to a
   * history that still holds it at `historyLength - 1` (not merely one of the same length).
   */
  lastMessageId?: string;
};

/** What a session persists besides its history. */
export type SessionRecord = {
  /**
   * Assigned by the store, never by the caller: the record's revision, which
   * increases on every save and is never reused, even across `clear`. Pass it as `expectedRevision` to `saveRecord` to save only if
   * nobody saved in between. A record passed to `saveRecord` may carry it; the
   * store ignores it and stores its own. Absent on records from stores that
   * predate compare-and-set.
   */
  revision?: number;
  state?: CompactionState;
  usage?: UsageRecord;
  /**
   * Set when automatic compaction could not help at this history length; it is
   * not tried again until the history changes (survives sessions made per call).
   */
  stuckAtHistoryLength?: number;
  /**
   * Per-model ratio of the provider's tokens to ours, learned from the growth
   * between consecutive calls (so fixed overhead such as tool definitions does not skew it).
   */
  calibration?: Record<string, number>;
};

/** Options of {@link SessionStore.loadHistory}. */
export type LoadHistoryOptions = {
  /**
   * Index of the first message to return: a process that already holds the
   * first `from` messages catches up with only what others appended since.
   * Past the end gives an empty array.
   * @default 0 (the whole history)
   */
  from?: number;
};

/** Options of {@link SessionStore.saveRecord}. */
export type SaveRecordOptions = {
  /**
   * Compare-and-set: the revision the record was computed from (the `revision`
   * of the record loaded, or 0 when there was none). When the store holds
   * another revision, the save throws {@link StoreConflictError} and writes
   * nothing.
   * @default undefined (save unconditionally: last writer wins)
   */
  expectedRevision?: number;
};

/**
 * Persistence for sessions, shared by every process that serves a
 * conversation. The history is append-only; the record is replaced whole and
 * atomically under compare-and-set. Implementations must keep the two
 * independent: a crash while saving the record never touches the history.
 *
 * The contract (checked by `runSessionStoreContract` from
 * `@compaction/core/testing`):
 *
 * - Appends are atomic and ordered per session: a reader sees all of an
 *   append or none of it, and concurrent appends land one after the other,
 *   each contiguous.
 * - Whatever `parseMessages` accepts round-trips unchanged, including
 *   `Uint8Array` file data and `Date` values; what cannot be stored (a
 *   `BigInt`, a cycle, a `Map`, a non-finite number) is refused with
 *   {@link StoreError} before anything is written.
 * - A write that fails throws {@link StoreError} naming the file or key and
 *   the cause, and leaves the stored data as it was.
 * - Corrupt stored data throws `InvalidStateError` naming the file or key
 *   (and the line or index of a bad message).
 */
export type SessionStore = {
  /** The display history, oldest first (from `options.from`). An unknown session has an empty history. */
  loadHistory(sessionId: string, options?: LoadHistoryOptions): Promise<Message[]>;
  /**
   * Appends to the display history, atomically: all of `messages` or none.
   * Resolves to the history's length after the append (stores that predate
   * this contract resolve to nothing), so a caller that knew the length
   * before can tell whether others appended in between.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: stores written before this contract resolve to void, and stay assignable.
  appendHistory(sessionId: string, messages: readonly Message[]): Promise<number | void>;
  /** The record saved last (with its `revision`), or undefined. */
  loadRecord(sessionId: string): Promise<SessionRecord | undefined>;
  /**
   * Replaces the record atomically: a reader sees the old or the new one,
   * never a mix. With `options.expectedRevision`, only if the store still
   * holds that revision (else {@link StoreConflictError}). Resolves to the new
   * revision (stores that predate compare-and-set resolve to nothing).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: stores written before compare-and-set resolve to void, and stay assignable.
  saveRecord(sessionId: string, record: SessionRecord, options?: SaveRecordOptions): Promise<number | void>;
  /**
   * Forgets the session: history and record. Revisions never repeat across a
   * clear (a counter is kept, or the next one starts from the clock), so a
   * record computed before the clear can never be saved over one saved after it.
   */
  clear(sessionId: string): Promise<void>;
};
