import {
  type CompactionSession,
  createConversationCache,
  type HistorySource,
  heldMessagesBytes,
  type Message,
  processConversationMemory,
  processCountedConversationMemory,
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
 * What a thread held counted, not loaded costs besides its messages: the core session
 * (its closures, the counted history's record), the entry, the conversion and source
 * objects. A message then: its LangChain message in the conversion (a reference: the
 * agent state holds the object) and its id's hash in the session. Measured: see
 * docs/decisions.md ("LangChain, session 6").
 */
export const COUNTED_THREAD_BYTES = 10_240;

/** See {@link COUNTED_THREAD_BYTES}. */
export const COUNTED_MESSAGE_BYTES = 24;

/** Whether a kept thread's session holds the history counted, not loaded: its conversion holds no core message. */
export function isCounted(thread: KeptThread): boolean {
  return thread.input.result.length === 0 && (thread.input.released ?? 0) > 0;
}

/** What a kept thread holds, in estimated bytes (what its budget sizes it by). */
export function keptThreadBytes(thread: KeptThread): number {
  const length = thread.input.source.length;
  if (isCounted(thread)) return COUNTED_THREAD_BYTES + length * COUNTED_MESSAGE_BYTES;
  return heldMessagesBytes(length, THREAD_MESSAGE_BYTES);
}

/**
 * A new session per model call would recount and rebuild the whole history
 * every time; a kept session takes only the new messages. Threads are kept in
 * core's `createConversationCache`, in the process's one budget
 * (`processConversationMemory()`, shared with every adapter's caches: the least
 * recently used conversations of the process go first), or past `maxThreads` when given.
 * A thread whose session holds the history counted, not loaded ({@link isCounted}: a
 * few KB) is kept in the budget of such conversations instead
 * (`processCountedConversationMemory()`), so thousands of them are kept where the
 * shared budget holds hundreds of loaded ones; each call puts its thread back in the
 * budget that matches how its session holds the history now.
 *
 * @default maxThreads undefined (the process's byte budgets apply)
 */
export function threadSessions(maxThreads?: number): ThreadSessions {
  if (maxThreads !== undefined) {
    const kept = createConversationCache<KeptThread>({ maxBytes: maxThreads, sizeOf: () => 1 });
    return { take: (threadId) => kept.take(threadId), keep: (threadId, entry) => kept.put(threadId, entry) };
  }
  const loaded = createConversationCache<KeptThread>({ memory: processConversationMemory(), sizeOf: keptThreadBytes });
  const counted = createConversationCache<KeptThread>({
    memory: processCountedConversationMemory(),
    sizeOf: keptThreadBytes,
  });
  return {
    take: (threadId) => loaded.take(threadId) ?? counted.take(threadId),
    keep: (threadId, entry) => (isCounted(entry) ? counted : loaded).put(threadId, entry),
  };
}

/**
 * Whether the kept session serves this call as a new session would: same setup,
 * the state holds the record the session left, and the history only grew since —
 * the call's conversion is the kept one extended in place, or (a kept conversion that
 * holds its core messages) one whose first messages are the very same core messages.
 */
export function canReuse(
  kept: KeptThread,
  call: { setup: readonly unknown[]; record: SessionRecord | undefined; input: Conversion<BaseMessage, Message> },
): boolean {
  return (
    kept.setup.length === call.setup.length &&
    kept.setup.every((value, index) => value === call.setup[index]) &&
    (kept.record === call.record || JSON.stringify(call.record) === JSON.stringify(kept.record)) &&
    (call.input === kept.input || (!kept.input.released && extendsHistory(kept.input.result, call.input.result)))
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
