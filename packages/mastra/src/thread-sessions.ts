import {
  type CompactionSession,
  conversationCacheKey,
  conversationTokenCache,
  createCompactionSession,
  createConversationCache,
  type HistorySource,
  heldMessagesBytes,
  memoryStore,
  type PreparedContext,
  processConversationMemory,
  processCountedConversationMemory,
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

/**
 * What a thread held counted, not loaded costs besides its messages (the session's and the
 * conversion cache's closures, the entry), and a message then: its Mastra message in the
 * cache (by identity, with its core count) and its id's hash in the session. Measured: a
 * 200-message thread freed 15.0 KB of heap when evicted (Node 24, full GC, 1,000 threads
 * after two calls each, `/tmp` script over the scale benchmark's driver; see docs/decisions.md).
 */
export const COUNTED_THREAD_BYTES = 10_240;

/**
 * See {@link COUNTED_THREAD_BYTES}; 24 bytes measured before the conversion cache kept a
 * two-word witness per Mastra message (`writeMessageWitness`: 8 bytes a Mastra message, about
 * 3–4 a core message, the cache's typed array grown by doubling): 28.
 */
export const COUNTED_MESSAGE_BYTES = 28;

/** A conversation's session, shared by the runs of that conversation. */
export type ThreadSession = {
  readonly session: CompactionSession;
  /** How core ids are made from the Mastra messages (see `toCoreMessages`). */
  readonly ids: 'message' | 'content';
  /** The conversation's Mastra → core conversions, reused from call to call. */
  readonly coreMessages: CoreMessageCache;
  /** The provider prompt of its compacted context, converted incrementally from step to step. */
  readonly prompts: ContextPrompt;
  /** The token of the run whose messages the session was last brought in line with. */
  owner: object | undefined;
  /** Whether its session held the history counted, not loaded, after the last prepare. */
  readonly counted: boolean;
  /** What the thread holds, in estimated bytes (what the process budget sizes it by). */
  readonly bytes: number;
  /**
   * `session.prepare({ history })` over a source from `coreMessages.view`: only what
   * changed since the last call is read, and while the session holds the history counted,
   * not loaded (`asIs`), the conversion cache lets go of its core messages too.
   */
  prepare(history: HistorySource, options?: { signal?: AbortSignal }): Promise<PreparedContext>;
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
  const sizeOf = (entry: Entry) => entry.thread.bytes;
  /** Threads whose session holds the history loaded, in the process's budget (and every thread's queue). */
  const sessions = createConversationCache<Entry>({ memory: processConversationMemory(), sizeOf });
  /** Threads whose session holds the history counted, not loaded: a few KB each, in a budget of their own. */
  const countedSessions = createConversationCache<Entry>({ memory: processCountedConversationMemory(), sizeOf });

  /** Moves a thread to the budget that matches how its session holds the history now (if still kept). */
  function place(cacheKey: string, entry: Entry): void {
    const [here, there] = entry.thread.counted ? [countedSessions, sessions] : [sessions, countedSessions];
    const kept = there.take(cacheKey);
    if (kept === undefined) return;
    // Another run's thread made after this one was let go: it stays where it is.
    (kept === entry ? here : there).put(cacheKey, kept);
  }

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
    const coreMessages = coreMessageCache(key.ids);
    /** The history's length after the last prepare, and whether the session held it counted, not loaded. */
    let length = 0;
    let counted = false;
    let entry: Entry | undefined;
    const thread: ThreadSession = {
      session,
      ids: key.ids,
      coreMessages,
      prompts: contextPrompt(),
      owner: undefined,
      get counted() {
        return counted;
      },
      get bytes() {
        if (!counted) return heldMessagesBytes(length, THREAD_MESSAGE_BYTES);
        // Counted: the conversions the cache still holds (those after a call the session loaded for) at full size.
        return COUNTED_THREAD_BYTES + length * COUNTED_MESSAGE_BYTES + coreMessages.held * THREAD_MESSAGE_BYTES;
      },
      async prepare(history, { signal } = {}) {
        let prepared: PreparedContext;
        try {
          prepared = await session.prepare({ history, ...(signal ? { signal } : {}) });
        } catch (error) {
          // The session may hold this source or the one before, counted or loaded: both still read as
          // they were (the cache keeps them), and the thread is sized as loaded, the larger, until a call succeeds.
          length = Math.max(length, history.length);
          counted = false;
          throw error;
        }
        length = history.length;
        counted = prepared.asIs === true;
        // Only now, the session having taken the call: it no longer needs the source before.
        coreMessages.taken(history);
        if (counted) coreMessages.release();
        return prepared;
      },
      exclusive(task) {
        return sessions.run(cacheKey, async () => {
          try {
            return await task();
          } finally {
            if (entry) place(cacheKey, entry);
          }
        });
      },
    };
    const useModel = (next: MastraLanguageModel) => {
      if (next === model) return;
      model = next;
      modelSummarizer = undefined;
    };
    entry = { thread, useModel };
    return entry;
  }

  return {
    get(key) {
      const cacheKey = conversationCacheKey(`${key.ids}\u0000${key.sessionId}`, key.modelId);
      let entry = sessions.get(cacheKey) ?? countedSessions.get(cacheKey);
      if (!entry) {
        entry = create(key, cacheKey);
        sessions.put(cacheKey, entry);
      }
      if (key.model) entry.useModel(key.model);
      return entry.thread;
    },
  };
}
