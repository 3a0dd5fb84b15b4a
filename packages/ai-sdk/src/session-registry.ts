import { type CompactionSession, createCompactionSession, memoryStore, sharedTokenCache } from '@compaction/core';
import type { AiSdkModel } from './as-language-model.js';
import type { CompactionOptions } from './compaction-options.js';
import { resolveSummarizer } from './resolve-summarizer.js';

/** How many per-message token counts the process keeps per counter for the AI SDK; the oldest go first. */
export const MAX_SHARED_TOKEN_COUNTS = 100_000;

/** How many sessions one middleware keeps in memory; the least recently used one goes first. */
export const MAX_CACHED_SESSIONS = 100;

/** The sessions of one middleware or prepareStep function, by conversation and model. */
export type SessionRegistry = {
  /** The session of a conversation, created on first use (its state loads from the store). */
  get(sessionId: string, model: AiSdkModel | string): CompactionSession;
};

/**
 * Keeps the recently used sessions in memory, so a session's guards (no retry
 * of a compaction that could not help, overflow suspected from usage) and token
 * counts carry from one call to the next. The AI SDK re-sends the history, so
 * sessions do not persist it (`persistHistory: false`); the store holds the state.
 * Sessions count tokens through core's process-wide `sharedTokenCache` of the
 * counter (ids here are content ids), so a new session for a conversation seen
 * before — evicted, under another model id, or in a second middleware — does not count again.
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
  const sessions = new Map<string, CompactionSession>();
  const tokenCache = sharedTokenCache(options.counter, { maxEntries: MAX_SHARED_TOKEN_COUNTS });
  return {
    get(sessionId, model) {
      const modelId = typeof model === 'string' ? model : model.modelId;
      const key = `${modelId}\u0000${sessionId}`;
      const cached = sessions.get(key);
      sessions.delete(key);
      const session =
        cached ??
        createCompactionSession({
          store,
          sessionId,
          model: modelId,
          persistHistory: false,
          summarizer: resolveSummarizer(options, model),
          settings: options.settings,
          tokenCache,
          onEvent: options.onCompaction,
        });
      sessions.set(key, session);
      if (sessions.size > MAX_CACHED_SESSIONS) sessions.delete(sessions.keys().next().value!);
      return session;
    },
  };
}
