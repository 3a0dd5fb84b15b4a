import {
  type CompactionSession,
  createCompactionSession,
  createTokenCache,
  gptTokenizerCounter,
  type Message,
  memoryStore,
  type PreparedContext,
  type Summarizer,
  structuredSummarizer,
} from '@compaction/core';
import type { LanguageModel as MastraLanguageModel } from '@mastra/core/llm';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';
import { type CoreMessageCache, coreMessageCache } from './core-message-cache.js';
import { mastraSummarizer } from './mastra-summarizer.js';

/** How many conversations one processor keeps a session for; the least recently used one goes first. */
export const MAX_CACHED_SESSIONS = 100;

/** How many per-message token counts one processor keeps; the oldest go first. */
export const MAX_CACHED_TOKEN_COUNTS = 100_000;

/** A conversation's session, shared by the runs of that conversation. */
export type ThreadSession = {
  readonly session: CompactionSession;
  /** How core ids are made from the Mastra messages (see `toCoreMessages`). */
  readonly ids: 'message' | 'content';
  /** The conversation's Mastra → core conversions, reused from call to call. */
  readonly coreMessages: CoreMessageCache;
  /** The run whose messages the session was last brought in line with. */
  owner: object | undefined;
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
};

/** The sessions of one `CompactionProcessor`, by conversation. */
export type ThreadSessions = {
  /** The conversation's session, made on first use (its state loads from the store). */
  get(key: ThreadKey): ThreadSession;
};

/**
 * Keeps a session per conversation (a `Memory` thread, or a re-sent conversation
 * without one) across the runs of that conversation, so a new run neither reloads
 * nor recounts the history: the session already holds it, and every session of
 * the processor shares one bounded cache of per-message token counts. Mastra keeps
 * the messages and re-sends them, so sessions do not persist them
 * (`persistHistory: false`); the compaction state is in the store.
 *
 * With no summarizer in the options, a session summarizes with the model of the
 * run that last used it.
 */
export function threadSessions(options: CompactionProcessorOptions): ThreadSessions {
  const store = options.store ?? memoryStore();
  const tokenCache = createTokenCache(options.counter ?? gptTokenizerCounter(), {
    maxEntries: MAX_CACHED_TOKEN_COUNTS,
  });
  const fixedSummarizer = options.summarizer === 'structured' ? structuredSummarizer() : options.summarizer;
  const sessions = new Map<string, { thread: ThreadSession; useModel(model: MastraLanguageModel): void }>();

  function create(key: ThreadKey) {
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
      store,
      summarizer,
      tokenCache,
      persistHistory: false,
      ...(options.settings ? { settings: options.settings } : {}),
      ...(key.modelId !== undefined ? { model: key.modelId } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    let queue: Promise<unknown> = Promise.resolve();
    /** The array the session's history was last brought in line with, and its length then. */
    let synced: { messages: Message[]; length: number } | undefined;
    const thread: ThreadSession = {
      session,
      ids: key.ids,
      coreMessages: coreMessageCache(key.ids),
      owner: undefined,
      async prepare(messages, { signal } = {}) {
        const signalOption = signal ? { signal } : {};
        const length = messages.length;
        const appendFrom = synced?.messages === messages ? synced.length : undefined;
        synced = undefined; // until the session holds `messages`
        if (appendFrom === undefined) {
          const prepared = await session.prepare({ messages, ...signalOption });
          synced = { messages, length };
          return prepared;
        }
        await session.append(messages.slice(appendFrom, length));
        synced = { messages, length };
        return session.prepare(signalOption);
      },
      exclusive(task) {
        const result = queue.then(task, task);
        queue = result.catch(() => undefined);
        return result;
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
      const id = `${key.ids}\u0000${key.modelId ?? ''}\u0000${key.sessionId}`;
      const entry = sessions.get(id) ?? create(key);
      sessions.delete(id);
      sessions.set(id, entry);
      if (sessions.size > MAX_CACHED_SESSIONS) sessions.delete(sessions.keys().next().value!);
      if (key.model) entry.useModel(key.model);
      return entry.thread;
    },
  };
}
