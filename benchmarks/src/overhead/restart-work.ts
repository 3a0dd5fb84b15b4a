import { join } from 'node:path';
import {
  type CompactionSession,
  createCompactionSession,
  fileStore,
  type Message,
  type SessionStore,
  type SqliteStore,
  sqliteStore,
} from '@compaction/core';
import { expectCompaction, NO_COMPACTION } from './bench-case.ts';

/** The store a restart case keeps its conversation in. */
export type RestartStoreKind = 'file' | 'sqlite';

/** A new store over `dir` (a `fileStore` folder, or the `sqliteStore` file in it): no memory of any session. */
export function openRestartStore(kind: RestartStoreKind, dir: string): SessionStore {
  return kind === 'file' ? fileStore(dir) : sqliteStore(join(dir, 'sessions.sqlite'));
}

/** Closes `store` as a process's exit would (SQLite checkpoints its WAL then); a `fileStore` holds nothing open. */
export function closeRestartStore(store: SessionStore | undefined): void {
  if (store && 'close' in store) (store as SqliteStore).close();
}

/** A new session over `store`, with its own empty token cache (the default: one per session). */
export function restartSession(store: SessionStore): CompactionSession {
  return createCompactionSession({ sessionId: 'restart', store, settings: NO_COMPACTION });
}

/** What the process before a restart leaves in `store`: the whole history and the usage record of its last call. */
export async function leaveConversation(store: SessionStore, history: readonly Message[]): Promise<void> {
  const before = restartSession(store);
  await before.append(history);
  await before.recordUsage({ inputTokens: (await before.prepare()).tokens });
}

/**
 * The work a restart case times: the session's first `prepare()` (checked to load all
 * `expected` messages and not compact) and the `recordUsage()` of that call.
 */
export async function firstCallAfterRestart(session: CompactionSession, expected: number): Promise<void> {
  const prepared = await session.prepare();
  expectCompaction(prepared.compaction !== undefined, false, 'core restart');
  if (prepared.messages.length !== expected) {
    throw new Error(`core restart: ${prepared.messages.length} messages loaded of ${expected}`);
  }
  await session.recordUsage({ inputTokens: prepared.tokens });
}
