import {
  type CompactionSession,
  conversationCacheKey,
  conversationTokenCache,
  createCompactionSession,
  createConversationCache,
  heldMessagesBytes,
  type Message,
  memoryStore,
  type PreparedContext,
  processConversationMemory,
  type SessionStore,
  type Summarizer,
} from '@compaction/core';
import type { LanguageModel as MastraLanguageModel } from '@mastra/core/llm';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';
import { type ContextPrompt, contextPrompt } from './context-prompt.js';
import { type CoreMessageCache, coreMessageCache } from './core-message-cache.js';
import { mastraSummarizer } from './mastra-summarizer.js';
import { resolveProcessorSummarizer } from './resolve-summarizer.js';

/**
 * What a kept thread holds a message (its core message with the Mastra origin, the
 * session's history and index, the conversions): measured ~0.6 KB on the
 * benchmarks' synthetic history (131 KB more heap per 200-message thread kept, Node 24:
 * `node --expose-gc src/scale/scale-run.ts mastra 350 200 1` against 100 conversations)
 * since the conversion cache holds field-by-field shapes only for the messages after the
 * last user message; ~0.8 KB before, ~1.2 KB before the conversions were made to size.
 */
export const THREAD_MESSAGE_BYTES = 620;

/** A conversation's session, shared by the runs of that conversation. */
export type ThreadSession = {
  readonly session: CompactionSession;
  /** How core ids are made from the Mastra messages (see `toCoreMessages`). */
  readonly ids: 'message' | 'content';
  /** The conversation's Mastra → core conversions, reused from call to call. */
  readonly coreMessages: CoreMessageCache;
  /** The provider prompt of its compacted context, converted incrementally from step to step. */
  readonly prompts: ContextPrompt;
  /** The run whose messages the session was last brought in line with. */
  owner: object | undefined;
  /** How many messages the session held after its last prepare (what the cache sizes it by). */
  readonly heldMessages: number;
  /**
   * `session.prepare({ messages })`. When the session was last brought in line with
   * this same array (from `coreMessages`, which only ever appends to an array it
   * returned), the messages added since are appended instead: the same outcome,
   * without comparing the whole history again.
   */
  prepare(messages: Message[], options?: { signal?: AbortSignal }): Promise<PreparedContext>;
  /** Runs `task` after every task of the conversation started before it (runs of one thread may overlap). */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
};

/** What identifies a conversation's session. */
export type ThreadKey = {
  sessionId: string;
  ids: 'message' | 'content';
  /** The model id for the context window and calibration. */
  modelId: string | undefined;
  /** The model of the run: the default summarizer's model. */
  model: MastraLanguageModel | undefined;
  /**
   * Where this conversation's record is kept when the options name no store (its
   * Mastra thread's metadata); read when its session is made.
   * @default the options' `store`, else one `memoryStore()` for every conversation
   */
  store?: SessionStore;
};

/** The sessions of one `CompactionProcessor`, by conversation. */
export type ThreadSessions = {
  /** The conversation's session, made on first use (its state loads from the store). */
  get(key: ThreadKey): ThreadSession;
};

/**
 * Keeps a session per conversation (a `Memory` thread, or a re-sent conversation
 * without one) across the runs of that conversation, so a new run neither reloads
 * nor recounts the history: the session already holds it, and every session
 * counts through core's `conversationTokenCache`, the one every adapter of the
 * process shares. Conversations are kept in core's `createConversationCache`
 * (by conversation and model, in the process's one budget `processConversationMemory()`,
 * shared with every adapter's caches: the least recently used conversations of the
 * process go first), whose queue runs a conversation's tasks one at a time. Mastra keeps
 * the messages and re-sends them, so sessions do not persist them
 * (`persistHistory: false`); the compaction state is in the store.
 *
 * With no summarizer in the options, a session summarizes with the model of the
 * run that last used it.
 */
export function threadSessions(options: CompactionProcessorOptions): ThreadSessions {
  const store = options.store ?? memoryStore();
  const tokenCache = conversationTokenCache(options.counter);
  const fixedSummarizer = resolveProcessorSummarizer(options.summarizer);
  type Entry = { thread: ThreadSession; useModel(model: MastraLanguageModel): void };
  const sessions = createConversationCache<Entry>({
    memory: processConversationMemory(),
    sizeOf: (entry) => heldMessagesBytes(entry.thread.heldMessages, THREAD_MESSAGE_BYTES),
  });

  function create(key: ThreadKey, cacheKey: string): Entry {
    let model = key.model;
    let modelSummarizer: Summarizer | undefined;
    const summarizer: Summarizer = fixedSummarizer ?? {
      name: 'llm',
      summarize(request) {
        modelSummarizer ??= mastraSummarizer(model!);
        return modelSummarizer.summarize(request);
      },
    };
    const session = createCompactionSession({
      sessionId: key.sessionId,
      store: key.store ?? store,
      summarizer,
      tokenCache,
      persistHistory: false,
      ...(options.settings ? { settings: options.settings } : {}),
      ...(key.modelId !== undefined ? { model: key.modelId } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    /** The array the session's history was last brought in line with, and its length then. */
    let synced: { messages: Message[]; length: number } | undefined;
    let held = 0;
    const thread: ThreadSession = {
      session,
      ids: key.ids,
      coreMessages: coreMessageCache(key.ids),
      prompts: contextPrompt(),
      owner: undefined,
      get heldMessages() {
        return held;
      },
      async prepare(messages, { signal } = {}) {
        const signalOption = signal ? { signal } : {};
        const length = messages.length;
        const appendFrom = synced?.messages === messages ? synced.length : undefined;
        synced = undefined; // until the session holds `messages`
        if (appendFrom === undefined) {
          const prepared = await session.prepare({ messages, ...signalOption });
          synced = { messages, length };
          held = length;
          return prepared;
        }
        await session.append(messages.slice(appendFrom, length));
        synced = { messages, length };
        held = length;
        return session.prepare(signalOption);
      },
      exclusive(task) {
        return sessions.run(cacheKey, task);
      },
    };
    const useModel = (next: MastraLanguageModel) => {
      if (next === model) return;
      model = next;
      modelSummarizer = undefined;
    };
    return { thread, useModel };
  }

  return {
    get(key) {
      const cacheKey = conversationCacheKey(`${key.ids}\u0000${key.sessionId}`, key.modelId);
      const entry = sessions.obtain(cacheKey, () => create(key, cacheKey));
      if (key.model) entry.useModel(key.model);
      return entry.thread;
    },
  };
}
