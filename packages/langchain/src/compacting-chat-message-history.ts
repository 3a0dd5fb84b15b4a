import {
  type CompactionEvent,
  type CompactionResult,
  type CompactionSession,
  type CompactionSettings,
  type CompactionState,
  createCompactionSession,
  getContextWindow,
  memoryStore,
  resolveSettings,
  type SessionStore,
  type TokenCounter,
} from '@compaction/core';
import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import { fromCoreMessages } from './from-core-messages.js';
import { assignMessageIds, messageIds } from './message-ids.js';
import { resolveSummarizer, type SummarizerOption } from './resolve-summarizer.js';
import { toCoreMessages } from './to-core-messages.js';

/** The part of a LangChain chat history that {@link CompactingChatMessageHistory} wraps. */
export type ChatHistoryLike = {
  getMessages(): Promise<BaseMessage[]>;
  addMessages(messages: BaseMessage[]): Promise<void>;
  clear(): Promise<void>;
};

/** Options of {@link CompactingChatMessageHistory}. */
export type CompactingChatMessageHistoryOptions = {
  /** The full history: any LangChain chat history (in memory, Redis, Postgres, …). It keeps every message. */
  history: ChatHistoryLike;
  /** The conversation's key in `store`. */
  sessionId: string;
  /**
   * Where the compaction record (summary, cut point, usage) persists, keyed by `sessionId`.
   * @default a memory store shared by the process (lost on restart; pass `fileStore(dir)` or your own to keep it)
   */
  store?: SessionStore;
  /**
   * What makes the summaries: a core `Summarizer`, a LangChain chat model, or `'structured'`.
   * @default 'structured'
   */
  summarizer?: SummarizerOption;
  /** @default DEFAULT_COMPACTION_SETTINGS */
  settings?: Partial<CompactionSettings>;
  /**
   * Model id, for the context window when `settings.contextWindow` is not set.
   * @default undefined (a 128K window)
   */
  model?: string;
  /** @default tiktokenCounter('o200k_base') */
  counter?: TokenCounter;
  /** @default undefined */
  onEvent?: (event: CompactionEvent) => void;
};

let sharedStore: SessionStore | undefined;

/**
 * A LangChain chat history that compacts: it wraps any chat history, which keeps
 * the full conversation, and `getMessages()` returns the compacted context
 * (summary + recent messages) — what a chain should send to the model. Drop it
 * in wherever a chat history goes, e.g. `RunnableWithMessageHistory`.
 * Messages without an id get a content-derived one before they are stored.
 *
 * @example
 * ```ts
 * const chain = new RunnableWithMessageHistory({
 *   runnable: prompt.pipe(model),
 *   getMessageHistory: (sessionId) =>
 *     new CompactingChatMessageHistory({ sessionId, history: new RedisChatMessageHistory({ sessionId }), summarizer: model }),
 *   inputMessagesKey: 'input',
 *   historyMessagesKey: 'history',
 * });
 * ```
 */
export class CompactingChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['compaction', 'langchain', 'history'];
  readonly sessionId: string;
  readonly #options: CompactingChatMessageHistoryOptions;
  readonly #store: SessionStore;
  /** The session of the last `getMessages()`, which `recordUsage` refers to. */
  #prepared: CompactionSession | undefined;

  constructor(options: CompactingChatMessageHistoryOptions) {
    super();
    resolveSettings(options.settings, getContextWindow(options.model)); // invalid settings fail here, not on the first call
    this.#options = options;
    this.sessionId = options.sessionId;
    sharedStore ??= memoryStore();
    this.#store = options.store ?? sharedStore;
  }

  /** The compacted context: summary + recent messages, every tool result with its call. */
  override async getMessages(): Promise<BaseMessage[]> {
    const session = this.#session();
    const prepared = await session.prepare({ messages: await this.#coreHistory() });
    this.#prepared = session;
    return fromCoreMessages(prepared.messages);
  }

  /** The whole conversation, as the wrapped history holds it. */
  async getFullMessages(): Promise<BaseMessage[]> {
    return this.#options.history.getMessages();
  }

  override async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Stores messages in the wrapped history (with ids), and records the input
   * tokens an added AI message reports, for the next token estimate.
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    if (messages.some((message) => !message.id)) {
      const existing = await this.#options.history.getMessages();
      const ids = messageIds([...existing, ...messages]);
      for (const [index, message] of messages.entries()) {
        if (!message.id) message._updateId(ids[existing.length + index]);
      }
    }
    await this.#options.history.addMessages(messages);
    const reported = messages.findLast((message) => (message as AIMessage).usage_metadata?.input_tokens);
    const inputTokens = (reported as AIMessage | undefined)?.usage_metadata?.input_tokens;
    if (inputTokens && this.#prepared) await this.#prepared.recordUsage({ inputTokens });
  }

  /** Clears the wrapped history and the compaction record. */
  override async clear(): Promise<void> {
    await this.#options.history.clear();
    await this.#store.clear(this.sessionId);
    this.#prepared = undefined;
  }

  /** Compacts now, whatever the token count (`/compact [focus]`). Undefined when there is nothing to compact. */
  async compact(instructions?: string): Promise<CompactionResult | undefined> {
    const session = this.#session();
    await session.append(await this.#coreHistory());
    return session.compact(instructions ? { instructions } : {});
  }

  /** The current compaction state, if the conversation was compacted. */
  async state(): Promise<CompactionState | undefined> {
    return this.#session().state();
  }

  async #coreHistory() {
    const full = await this.#options.history.getMessages();
    assignMessageIds(full);
    return toCoreMessages(full);
  }

  /** A session per operation: the record is read from the store each time, so instances can come and go. */
  #session(): CompactionSession {
    const { settings, model, counter, onEvent } = this.#options;
    return createCompactionSession({
      store: this.#store,
      sessionId: this.sessionId,
      summarizer: resolveSummarizer(this.#options.summarizer ?? 'structured'),
      persistHistory: false,
      ...(settings ? { settings } : {}),
      ...(model ? { model } : {}),
      ...(counter ? { counter } : {}),
      ...(onEvent ? { onEvent } : {}),
    });
  }
}
