/**
 * The child of the `core-restart-process` cases: a Node process that opens the store a
 * previous process left (`fileStore` folder or `sqliteStore` file), makes a new session and
 * times its first `prepare()` + `recordUsage()` — the same work the in-process restart case
 * times, here with nothing warm: no compiled code, a fresh heap. Prints `{ "ms": … }`.
 *
 * Usage: `node restart-in-new-process.ts <file|sqlite> <path> <expected message count>`.
 */
import { createCompactionSession, fileStore, type SqliteStore, sqliteStore } from '@compaction/core';
import { NO_COMPACTION } from './bench-case.ts';

const [kind, path, expected] = process.argv.slice(2);
if ((kind !== 'file' && kind !== 'sqlite') || !path || !expected) {
  throw new Error('usage: node restart-in-new-process.ts <file|sqlite> <path> <expected message count>');
}
const store = kind === 'file' ? fileStore(path) : sqliteStore(path);
const session = createCompactionSession({ sessionId: 'restart', store, settings: NO_COMPACTION });
const started = performance.now();
const prepared = await session.prepare();
if (prepared.compaction !== undefined || prepared.messages.length !== Number(expected)) {
  throw new Error(
    `restart in a new process: ${prepared.messages.length} messages of ${expected}, compacted: ${Boolean(prepared.compaction)}`,
  );
}
await session.recordUsage({ inputTokens: prepared.tokens });
const ms = performance.now() - started;
if (kind === 'sqlite') (store as SqliteStore).close();
process.stdout.write(`${JSON.stringify({ ms })}\n`);
