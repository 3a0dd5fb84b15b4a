import type { CompactionState } from '../compaction/compaction-state.js';
import type { Message } from '../messages/types.js';

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
  /** Our own count of that context (before calibration), to learn the provider's offset and ratio. */
  countedTokens?: number;
  /**
   * Id of the last history message the call covered; the usage applies only to a
   * history that still holds it at `historyLength - 1` (not merely one of the same length).
   */
  lastMessageId?: string;
};

/** What a session persists besides its history. */
export type SessionRecord = {
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

/**
 * Persistence for sessions. The history is append-only; the record is replaced
 * whole and atomically. Implementations must keep the two independent: a crash
 * while saving the record never touches the history.
 */
export type SessionStore = {
  /** The display history, oldest first. An unknown session has an empty history. */
  loadHistory(sessionId: string): Promise<Message[]>;
  /** Appends to the display history. */
  appendHistory(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** The record saved last, or undefined. */
  loadRecord(sessionId: string): Promise<SessionRecord | undefined>;
  /** Replaces the record atomically: a reader sees the old or the new one, never a mix. */
  saveRecord(sessionId: string, record: SessionRecord): Promise<void>;
  /** Forgets the session: history and record. */
  clear(sessionId: string): Promise<void>;
};
