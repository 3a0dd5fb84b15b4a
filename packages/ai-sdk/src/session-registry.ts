import {
  type CompactionSession,
  conversationCacheKey,
  conversationTokenCache,
  createCompactionSession,
  createConversationCache,
  heldMessagesBytes,
  memoryStore,
  processConversationMemory,
  processCountedConversationMemory,
  SESSION_MESSAGE_BYTES,
} from '@compaction/core';
import type { AiSdkModel } from './as-language-model.js';
import type { CompactionOptions } from './compaction-options.js';
import { CONVERSION_MESSAGE_BYTES, type ConversionSlot, slotHeldMessages, slotMessages } from './message-converter.js';
import { resolveSummarizer } from './resolve-summarizer.js';

/** A conversation's kept entry: its session, and the conversion the middleware or prepareStep keeps beside it. */
export type SessionEntry = ConversionSlot & {
  readonly session: CompactionSession;
  /** How many messages the session holds (the last call's). */
  messages: number;
  /**
   * Whether the session held the history counted, not loaded, after its last prepare (and
   * the conversion let go of its core messages): the entry is then in the process's budget
   * of counted conversations, `processCountedConversationMemory()`.
   */
  counted: boolean;
};

/**
 * What a conversation held counted, not loaded costs besides its messages, in JS heap: the
 * session (its closures and contexts, its counted history and the message after its usage
 * record), the entry, the conversion (its chains, the last user message as sent) and the
 * history handed out. Measured with {@link COUNTED_MESSAGE_BYTES}: Node 24, 1,000
 * conversations of the scale benchmark's synthetic history after two calls each, all
 * evicted at once, full GC: 12,972 / 15,165 / 18,031 bytes of heap freed a conversation of
 * 51 / 201 / 401 messages (a line of 12.2 KB + 14.5 bytes a message).
 */
export const COUNTED_CONVERSATION_BYTES = 12_288;

/**
 * What a conversation held counted costs a message in JS heap: its packed references
 * (about two: a text, or a tool call's id and input). Outside the heap, in typed arrays, a
 * message also takes 16 bytes of the conversion's table (its shape, tool names and content
 * id) and 8 of the session's id hashes — 5.3 KB for 201 messages, not counted here.
 */
export const COUNTED_MESSAGE_BYTES = 16;

/** The sessions of one middleware or prepareStep function, by conversation and model. */
export type SessionRegistry = {
  /**
   * The session of a conversation, created on first use (its state loads from
   * the store). `messages` is how many the call hands it: what the kept session holds.
   */
  get(sessionId: string, model: AiSdkModel | string, messages?: number): CompactionSession;
  /**
   * The conversation's entry as {@link get} keeps it (created on first use, marked the
   * most recently used, at its current size): the caller keeps the conversation's
   * conversion in it, so a conversation is one entry of the budget, its session and
   * conversion evicted together. `messages` as for `get`.
   */
  entry(sessionId: string, model: AiSdkModel | string, messages?: number): SessionEntry;
  /**
   * Puts the conversation's entry in the budget that matches how its session holds the
   * history now (`entry.counted`), if it is still kept (an entry made again after this one
   * was let go stays where it is).
   */
  place(sessionId: string, model: AiSdkModel | string, entry: SessionEntry): void;
};

/**
 * Keeps the recently used sessions in memory (core's `createConversationCache`
 * in the process's one budget, `processConversationMemory()`, shared with every
 * adapter's caches: the least recently used conversations of the process go
 * first), one entry a conversation and model: the session, and the conversion
 * the middleware or prepareStep keeps beside it ({@link SessionRegistry.entry};
 * a session is sized by `SESSION_MESSAGE_BYTES` a message, as its core messages
 * are the conversion's), so a session's guards (no retry
 * of a compaction that could not help, overflow suspected from usage) and token
 * counts carry from one call to the next. The AI SDK re-sends the history, so
 * sessions do not persist it (`persistHistory: false`); the store holds the state.
 * Sessions count tokens through core's process-wide `conversationTokenCache` of
 * the counter, so a new session for a conversation seen before — evicted, under
 * another model id, or in a second middleware — does not count again what is
 * still cached, and counts nothing the store's usage record already covers.
 * Middlewares and prepareStep functions made from the same options object share one registry.
 */
export function sessionRegistry(options: CompactionOptions): SessionRegistry {
  // One registry per options object: `compactionChat` reaches the very sessions its
  // middleware uses, so a manual compaction is never overwritten by a stale session.
  let registry = registries.get(options);
  if (!registry) {
    registry = createRegistry(options);
    registries.set(options, registry);
  }
  return registry;
}

/** The registry of each options object (see {@link sessionRegistry}). */
const registries = new WeakMap<CompactionOptions, SessionRegistry>();

function createRegistry(options: CompactionOptions): SessionRegistry {
  const store = options.store ?? memoryStore();
  /** Conversations whose session holds the history loaded, in the process's budget. */
  const sessions = createConversationCache<SessionEntry>({
    memory: processConversationMemory(),
    // A conversion beside the session holds the same messages (its core messages are the session's).
    sizeOf: (entry) =>
      heldMessagesBytes(
        Math.max(entry.messages, slotMessages(entry)),
        SESSION_MESSAGE_BYTES + (entry.conversion === undefined ? 0 : CONVERSION_MESSAGE_BYTES),
      ),
  });
  /** Conversations whose session holds the history counted, not loaded: a few KB each, in a budget of their own. */
  const countedSessions = createConversationCache<SessionEntry>({
    memory: processCountedConversationMemory(),
    sizeOf: (entry) =>
      COUNTED_CONVERSATION_BYTES +
      Math.max(entry.messages, slotMessages(entry)) * COUNTED_MESSAGE_BYTES +
      slotHeldMessages(entry) * CONVERSION_MESSAGE_BYTES,
  });
  const tokenCache = conversationTokenCache(options.counter);
  const registry: SessionRegistry = {
    get: (sessionId, model, messages) => registry.entry(sessionId, model, messages).session,
    entry(sessionId, model, messages) {
      const modelId = typeof model === 'string' ? model : model.modelId;
      const key = conversationCacheKey(sessionId, modelId);
      const entry: SessionEntry = sessions.take(key) ??
        countedSessions.take(key) ?? {
          session: createCompactionSession({
            store,
            sessionId,
            model: modelId,
            persistHistory: false,
            summarizer: resolveSummarizer(options, model),
            settings: options.settings,
            tokenCache,
            onEvent: options.onEvent ?? options.onCompaction,
          }),
          messages: messages ?? 0,
          counted: false,
        };
      if (messages !== undefined) entry.messages = messages;
      (entry.counted ? countedSessions : sessions).put(key, entry); // the most recently used, at its current size
      return entry;
    },
    place(sessionId, model, entry) {
      const key = conversationCacheKey(sessionId, typeof model === 'string' ? model : model.modelId);
      const [here, there] = entry.counted ? [countedSessions, sessions] : [sessions, countedSessions];
      const kept = there.take(key);
      if (kept !== undefined) (kept === entry ? here : there).put(key, kept);
      else {
        // Already in the right budget: put again at its current size.
        const held = here.take(key);
        if (held !== undefined) here.put(key, held);
      }
    },
  };
  return registry;
}
