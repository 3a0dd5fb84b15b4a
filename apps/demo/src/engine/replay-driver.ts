import type { CompactionEvent, CompactionSettings, Message, Summarizer, TokenCounter } from '@compaction/core';
import type { RecordedReplies } from '../replay/recorded-replies.js';

/** What a driver needs to replay a conversation through one adapter. */
export type DriverInput = {
  /** The conversation, in order; every assistant message is one model call. */
  messages: readonly Message[];
  /** The replay model's cursor: a driver answers each call with `replies.next(prompt)` (or a framework replay model over it). */
  replies: RecordedReplies;
  sessionId: string;
  settings: Partial<CompactionSettings>;
  /** Model id, for the context window. */
  model?: string;
  summarizer: Summarizer;
  counter: TokenCounter;
  /** Every compaction event of the engine. */
  onEvent: (event: CompactionEvent) => void;
  /** Messages before which the recorded user ran `/compact`: every driver compacts by hand there (or at the next call). */
  manualCompactionsBefore?: ReadonlySet<string>;
};

/**
 * Replays a conversation through one adapter: feeds the user and tool messages as the
 * framework would, makes one model call (on the replay model) per recorded assistant
 * message, and appends the reply. Resolves when the conversation is done.
 */
export type ReplayDriver = (input: DriverInput) => Promise<void>;
