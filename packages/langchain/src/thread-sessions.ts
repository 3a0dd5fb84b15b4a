import {
  type CompactionSession,
  createConversationCache,
  type HistorySource,
  heldMessagesBytes,
  type Message,
  processConversationMemory,
  type SessionRecord,
  type SessionStore,
} from '@compaction/core';
import type { BaseMessage } from '@langchain/core/messages';
import type { Conversion } from './extend-conversion.js';
import { extendsHistory } from './extends-history.js';

/**
 * A core session that can serve several model calls of one thread. Its store
 * stands for the agent state of the call at hand ({@link ThreadSession.use}):
 * the record lives in the state, not in the session.
 */
export type ThreadSession = {
  readonly session: CompactionSession;
  /** Points the session's store at this call's store (over the record in this call's agent state). */
  use(store: SessionStore): void;
};

/** What a thread's last model call left: its session and conversions, and the record it left in the state. */
export type KeptThread = {
  thread: ThreadSession;
  /** What the session was made with (context window, model id, summarizer source): it serves only calls with the same. */
  setup: readonly unknown[];
  /** The record the state holds after the call (the same object, or a copy from a checkpointer). */
  record: SessionRecord | undefined;
  /** The state's messages → the session's history. */
  input: Conversion<BaseMessage, Message>;
  /** The source the session was last brought in line with: the first messages of the next call's history. */
  source: HistorySource;
  /** The prepared context → the messages the model was sent (none when the context was the state's messages as they are). */
  output?: Conversion<Message, BaseMessage>;
};

/**
 * What a kept thread holds a message (its core message with the LangChain origin, the
 * session's history and index, the two conversions): measured ~0.43 KB on the
 * benchmarks' synthetic history (90 KB more heap per 200-message thread kept, Node 24:
 * `node --expose-gc src/scale/scale-run.ts langchain 350 200 1` against 100 conversations,
 * twice), since the origin lives on the core message instead of a `WeakMap` entry.
 */
export const THREAD_MESSAGE_BYTES = 440;

/** The threads of one middleware, kept between model calls; see {@link threadSessions}. */
export type ThreadSessions = {
  /** Takes what the thread's last call left out of the cache (a concurrent call of the thread starts afresh). */
  take(threadId: string): KeptThread | undefined;
  /** Keeps what this call leaves for the thread's next call. */
  keep(threadId: string, kept: KeptThread): void;
};

/**
 * A new session per model call would recount and rebuild the whole history
 * every time; a kept session takes only the new messages. Threads are kept in
 * core's `createConversationCache`, in the process's one budget
 * (`processConversationMemory()`, shared with every adapter's caches: the least
 * recently used conversations of the process go first), or past `maxThreads` when given.
 *
 * @default maxThreads undefined (the process's byte budget applies)
 */
export function threadSessions(maxThreads?: number): ThreadSessions {
  const kept = createConversationCache<KeptThread>(
    maxThreads === undefined
      ? {
          memory: processConversationMemory(),
          sizeOf: (thread) => heldMessagesBytes(thread.input.result.length, THREAD_MESSAGE_BYTES),
        }
      : { maxBytes: maxThreads, sizeOf: () => 1 },
  );
  return {
    take: (threadId) => kept.take(threadId),
    keep: (threadId, entry) => kept.put(threadId, entry),
  };
}

/**
 * Whether the kept session serves this call as a new session would: same setup,
 * the state holds the record the session left, and the history only grew since.
 */
export function canReuse(
  kept: KeptThread,
  call: { setup: readonly unknown[]; record: SessionRecord | undefined; history: readonly Message[] },
): boolean {
  return (
    kept.setup.length === call.setup.length &&
    kept.setup.every((value, index) => value === call.setup[index]) &&
    (kept.record === call.record || JSON.stringify(call.record) === JSON.stringify(kept.record)) &&
    extendsHistory(kept.input.result, call.history)
  );
}

/**
 * A session whose store is swapped before each call: `create` gets a store that
 * forwards to `initial`, then to the one last given to `use`.
 */
export function threadSession(
  initial: SessionStore,
  create: (store: SessionStore) => CompactionSession,
): ThreadSession {
  let target = initial;
  const store: SessionStore = {
    loadHistory: (sessionId) => target.loadHistory(sessionId),
    appendHistory: (sessionId, messages) => target.appendHistory(sessionId, messages),
    loadRecord: (sessionId) => target.loadRecord(sessionId),
    saveRecord: (sessionId, record) => target.saveRecord(sessionId, record),
    clear: (sessionId) => target.clear(sessionId),
  };
  return {
    session: create(store),
    use(next) {
      target = next;
    },
  };
}
