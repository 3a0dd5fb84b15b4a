import type { CompactionResult, CompactionTrigger } from '../compaction/compaction-result.js';
import type { CompactionState, CompactionStrategy } from '../compaction/compaction-state.js';
import type { Message, MessageUsage } from '../messages/types.js';
import type { SessionStore } from '../store/session-store.js';
import type { Summarizer } from '../summarize/types.js';
import type { TokenCache } from '../tokens/create-token-cache.js';
import type { AdapterOptions } from './adapter-options.js';

export type { CompactionResult, CompactionTrigger };

export type CompactionStartEvent = {
  type: 'compaction:start';
  sessionId: string;
  trigger: CompactionTrigger;
  messages: number;
  tokens: number;
};

export type CompactionEndEvent = {
  type: 'compaction:end';
  sessionId: string;
  trigger: CompactionTrigger;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  messagesSummarized: number;
  strategy: CompactionStrategy;
  fallbacks: { strategy: string; error: string }[];
  durationMs: number;
  result: CompactionResult;
};

export type CompactionErrorEvent = {
  type: 'compaction:error';
  sessionId: string;
  trigger: CompactionTrigger;
  /** What went wrong, in a sentence with the figures. */
  message: string;
  tokensBefore: number;
  tokensAfter?: number;
  error?: unknown;
};

/**
 * A store operation failed where the session goes on: a usage report the store
 * refused after the model answered (saved again on the next call), or a stored
 * record that failed validation (set aside; the session goes on from the history).
 */
export type StoreErrorEvent = {
  type: 'store:error';
  sessionId: string;
  /** The store operation that failed. */
  operation: 'loadRecord' | 'saveRecord';
  /** What happened and what the session did about it. */
  message: string;
  /** The store's error. */
  error: unknown;
};

export type CompactionEvent = CompactionStartEvent | CompactionEndEvent | CompactionErrorEvent | StoreErrorEvent;

/** Options of {@link createCompactionSession}: `settings`, `counter` and `onEvent` as every adapter takes them, and the session's own. */
export type CompactionSessionOptions = AdapterOptions & {
  /** Where history and state persist. @default memoryStore() */
  store?: SessionStore;
  /** The conversation's key in the store. */
  sessionId: string;
  /** Makes the summaries. @default structuredSummarizer() */
  summarizer?: Summarizer;
  /** Model id, for the context window (`getContextWindow`) and usage calibration. */
  model?: string;
  /**
   * Per-message token counts to reuse (built on `counter`). Adapters that make a
   * session per call share one, so a call counts only messages no call counted before.
   * @default a new cache for this session
   */
  tokenCache?: TokenCache;
  /**
   * Whether the session writes the display history to the store. Adapters whose
   * framework keeps the history (and re-sends it) pass `false` and hand the
   * messages to `prepare({ messages })` instead. Without a `store` there is no
   * one to read it back (the session holds the history itself), so nothing is
   * written: a copy of every message was most of the heap of many sessions.
   * @default true with a `store`, false without
   */
  persistHistory?: boolean;
};

/** What {@link CompactionSession.prepare} returns. */
export type PreparedContext = {
  /** The messages to send to the model. */
  messages: Message[];
  /** Estimated context tokens of `messages`. */
  tokens: number;
  /** Set when this call compacted. */
  compaction?: CompactionResult;
  /**
   * Set by `prepare({ history })` when the context is the caller's history exactly as it
   * is and the session holds none of the messages its usage record covers ("counted, not
   * loaded"): the caller can send its own messages and need not read `messages` (reading it
   * asks the source for the whole history).
   */
  asIs?: true;
  /**
   * Set when the context is the session's history message for message (no compaction
   * state, no tool pair repaired), to its length: a caller that brought the session in line
   * with that many messages (`messages`, or `history`) can send its own as they are. On a
   * call far below the trigger, `messages` is then copied from the context only when read.
   * @default undefined
   */
  wholeHistory?: number;
};

/**
 * The caller's full history, read only as far as a call needs (see `prepare({ history })`):
 * an adapter that keeps its framework's messages passes one instead of converting them all.
 */
export type HistorySource = {
  /** How many messages the history holds. */
  readonly length: number;
  /**
   * The messages from index `from` to the end, as core messages. The session asks for the
   * ones after what it holds (usually the new ones), and for all of them only when it needs
   * the old messages (a compaction, an overflow recovery, `history()`, `context()`, an edit).
   * The first `length` of what it returns must not change while the session holds the source.
   */
  messages(from: number): readonly Message[];
  /**
   * How this history relates to an earlier source of the same caller: its first `unchanged`
   * messages are those `source` had (same ids, same content). The session takes it on trust
   * only when `source` is the one it was last brought in line with and nothing else changed
   * its history since; otherwise it compares every id.
   * @default undefined (every id is compared)
   */
  readonly since?: { readonly source: HistorySource; readonly unchanged: number };
};

/** Figures for a status line: "62% of 200K used, 2 compactions". */
export type SessionStats = {
  contextTokens: number;
  contextWindow: number;
  percentUsed: number;
  triggerTokens: number;
  compactions: number;
  historyMessages: number;
  contextMessages: number;
};

/** Options of {@link CompactionSession.prepare}. */
export type PrepareOptions = {
  /** The framework's full history, converted (see `prepare`). */
  messages?: readonly Message[];
  /**
   * The framework's full history as a source read only as far as needed, instead of
   * `messages` (not both). With a session that does not persist its history
   * (`persistHistory: false`), no compaction state and a usage record that covers the
   * history, a call far below the trigger reads only the new messages and the session
   * keeps only the ids of the old ones ("counted, not loaded"); anything that needs the
   * old messages asks the source for them.
   * @default undefined
   */
  history?: HistorySource;
  /** Aborts a compaction this call runs. */
  signal?: AbortSignal;
};

export type CompactionSession = {
  readonly sessionId: string;
  /** Appends to the display history (validated; ids must be new). */
  append(messages: Message | readonly Message[]): Promise<void>;
  /**
   * Call before every model call. With `messages`, first brings the history in
   * line with them (the framework's full history: new messages are appended; a
   * history that diverged, e.g. an edited message, starts a new branch). With
   * `history`, the same, reading of the source only what the call needs. Then
   * compacts when the policy says so and returns the context for the model.
   *
   * @throws {InvalidSettingsError} when given both `messages` and `history`.
   */
  prepare(options?: PrepareOptions): Promise<PreparedContext>;
  /**
   * Records the provider-reported usage of the call made with the last prepared context: the
   * one the last `prepare()` called before it returned, awaited or not (a session runs its
   * operations in call order).
   */
  recordUsage(usage: MessageUsage): Promise<void>;
  /** Manual compaction (`/compact [focus]`). Returns undefined when there is nothing to compact. */
  compact(options?: {
    instructions?: string;
    keepRecentTokens?: number;
    signal?: AbortSignal;
  }): Promise<CompactionResult | undefined>;
  /**
   * Asks for a manual compaction that runs at the next `prepare()` called after it — before the next
   * model call, not in the middle of the current step (the model's `compact_context`
   * tool). A second request before then replaces the first one's focus.
   */
  requestCompaction(request?: { instructions?: string }): void;
  /**
   * After a context-overflow error: compacts in emergency mode (`keepRecentTokens = window / 5`,
   * forced cut). Returns true when the context shrank and the caller should retry once.
   */
  recoverFromOverflow(error: unknown, options?: { signal?: AbortSignal }): Promise<boolean>;
  /** The context the model would see now, without compacting. */
  context(): Promise<Message[]>;
  /** The full display history. */
  history(): Promise<Message[]>;
  /** The current compaction state, if any. */
  state(): Promise<CompactionState | undefined>;
  stats(): Promise<SessionStats>;
  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: (event: CompactionEvent) => void): () => void;
  /** Forgets history and state. */
  clear(): Promise<void>;
};
