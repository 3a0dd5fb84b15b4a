import {
  type AdapterOptions,
  type CompactionResult,
  type CompactionSession,
  type CompactionState,
  conversationTokenCache,
  createCompactionSession,
  type HistorySource,
  type Message,
  memoryStore,
  type SessionStore,
} from '@compaction/core';
import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import { checkBaseMessages } from './check-base-messages.js';
import { checkChatHistoryOptions } from './check-langchain-options.js';
import type { Conversion } from './extend-conversion.js';
import { extendsHistory } from './extends-history.js';
import { extendFromCore, fromCoreContext } from './from-core-messages.js';
import { loadConversion } from './held-conversion.js';
import { messageIds } from './message-ids.js';
import { type ObservedStore, observedStore } from './observed-store.js';
import { prepareGrown } from './prepare-grown.js';
import { resolveSummarizer, type SummarizerOption } from './resolve-summarizer.js';
import { extendToCore } from './to-core-messages.js';

/** The part of a LangChain chat history that {@link CompactingChatMessageHistory} wraps. */
export type ChatHistoryLike = {
  getMessages(): Promise<BaseMessage[]>;
  addMessages(messages: BaseMessage[]): Promise<void>;
  clear(): Promise<void>;
};

/**
 * Options of {@link CompactingChatMessageHistory}: core's `settings`, `counter` and
 * `onEvent` (`AdapterOptions`), and the history's own.
 */
export type CompactingChatMessageHistoryOptions = AdapterOptions & {
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
  /**
   * Model id, for the context window when `settings.contextWindow` is not set.
   * @default undefined (a 128K window)
   */
  model?: string;
};

let sharedStore: SessionStore | undefined;
/** A session kept between calls, with the store that saw its record and the last call's conversions. */
type KeptSession = {
  session: CompactionSession;
  store: ObservedStore;
  /** The wrapped history's messages → the session's history. */
  input?: Conversion<BaseMessage, Message>;
  /** The source the session was last brought in line with: the first messages of the next call's history. */
  source?: HistorySource;
  /** The prepared context → what `getMessages()` returned (none when it was the history as it is). */
  output?: Conversion<Message, BaseMessage>;
};

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
  /** The session of the last call, reused while the record in the store is the one it left and the history only grew. */
  #kept: KeptSession | undefined;

  constructor(options: CompactingChatMessageHistoryOptions) {
    super();
    checkChatHistoryOptions(options); // invalid options fail here, not on the first call
    this.#options = options;
    this.sessionId = options.sessionId;
    sharedStore ??= memoryStore();
    this.#store = options.store ?? sharedStore;
  }

  /** The compacted context: summary + recent messages, every tool result with its call. */
  override async getMessages(): Promise<BaseMessage[]> {
    const kept = this.#kept;
    this.#kept = undefined; // a concurrent call makes its own session
    const input = await this.#coreHistory(kept?.input);
    const reused = kept && (await this.#canReuse(kept, input)) ? kept : undefined;
    const current = reused ?? this.#newSession();
    // A kept session holds the kept source's messages, the first of the history (`#canReuse`): it reads only the rest.
    const { prepared, source } = await prepareGrown(current.session, input, reused?.source);
    this.#prepared = current.session;
    if (prepared.asIs || prepared.wholeHistory === input.source.length) {
      // The context is the wrapped history as it is: its messages are returned, nothing converted back
      // (and core's context is not read: far below the trigger it is copied only when read).
      this.#kept = { session: current.session, store: current.store, input, source };
      return input.source.slice();
    }
    loadConversion(input); // core loaded the history from the source (this does nothing then)
    // A backend that gives back other objects (Redis, Postgres) is answered with those, not the ones converted.
    const output = input.restored
      ? fromCoreContext(prepared.messages, input)
      : extendFromCore(kept?.output, prepared.messages);
    this.#kept = { session: current.session, store: current.store, input, source, output };
    return output.result.slice();
  }

  /** The whole conversation, as the wrapped history holds it. */
  async getFullMessages(): Promise<BaseMessage[]> {
    return this.#options.history.getMessages();
  }

  /** Stores one message (see {@link addMessages}). */
  override async addMessage(message: BaseMessage): Promise<void> {
    checkBaseMessages([message], 'addMessage');
    await this.addMessages([message]);
  }

  /**
   * Stores messages in the wrapped history (with ids), and records the input
   * tokens an added AI message reports, for the next token estimate. Anything but
   * an array of LangChain messages (a string, `{ role, content }`) is an
   * `InvalidMessageError`, and nothing is stored.
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    checkBaseMessages(messages, 'addMessages');
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
    this.#kept = undefined;
  }

  /** Compacts now, whatever the token count (`/compact [focus]`). Undefined when there is nothing to compact. */
  async compact(instructions?: string): Promise<CompactionResult | undefined> {
    const input = await this.#coreHistory(undefined);
    loadConversion(input);
    const current = this.#newSession();
    await current.session.append(input.result);
    const result = await current.session.compact(instructions ? { instructions } : {});
    this.#kept = { ...current, input };
    return result;
  }

  /** The current compaction state, if the conversation was compacted. */
  async state(): Promise<CompactionState | undefined> {
    return this.#newSession().session.state();
  }

  async #coreHistory(previous: Conversion<BaseMessage, Message> | undefined) {
    // Ids are written onto messages that have none when the history is converted whole.
    return extendToCore(previous, await this.#options.history.getMessages(), { assignIds: true });
  }

  /**
   * Whether the kept session serves a call on `history` as a new session would:
   * the store holds the record it left (no other history or process wrote one
   * since) and the history only grew.
   */
  async #canReuse(kept: KeptSession, input: Conversion<BaseMessage, Message>): Promise<boolean> {
    const extended =
      kept.input === input || (!!kept.input && !kept.input.released && extendsHistory(kept.input.result, input.result));
    if (!extended) return false;
    // The store stamps a record with its revision on load: compared apart from the content (`holds`).
    return kept.store.holds(await this.#store.loadRecord(this.sessionId));
  }

  /** A new session: it reads the record from the store, so instances can come and go. */
  #newSession(): KeptSession {
    const { settings, model, counter, onEvent } = this.#options;
    const store = observedStore(this.#store);
    const session = createCompactionSession({
      store,
      sessionId: this.sessionId,
      summarizer: resolveSummarizer(this.#options.summarizer ?? 'structured'),
      persistHistory: false,
      tokenCache: conversationTokenCache(counter),
      ...(settings ? { settings } : {}),
      ...(model ? { model } : {}),
      ...(onEvent ? { onEvent } : {}),
    });
    return { session, store };
  }
}
