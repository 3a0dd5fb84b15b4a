import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashDuringAppend } from '../../test/processes/crash-during-append.js';
import { fileStore } from '../store/file-store.js';
import { memoryStore } from '../store/memory-store.js';
import { sessionFileName } from '../store/session-file-name.js';
import type { SessionStore } from '../store/session-store.js';
import { type SqliteStore, sqliteStore } from '../store/sqlite-store.js';
import { type CorruptionKind, sessionStoreContract } from './session-store-contract.js';

const factories = new URL('../../test/processes/core-store-factories.ts', import.meta.url);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-contract-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('memoryStore meets the SessionStore contract', () => {
  const shared = memoryStore();
  for (const test of sessionStoreContract({ createStore: () => shared })) it(test.name, test.run);
});

describe('fileStore meets the SessionStore contract', () => {
  const folder = () => join(dir, 'files');
  const contract = sessionStoreContract({
    createStore: () => fileStore(folder()),
    async corrupt(sessionId, kind: CorruptionKind) {
      const base = join(folder(), sessionFileName(sessionId));
      if (kind === 'record-not-json') {
        await writeFile(`${base}.state.json`, '{"revision": 3, "state": {');
        return `${base}.state.json`;
      }
      const line =
        kind === 'history-not-json'
          ? '{"id": "m3", "ro'
          : JSON.stringify({ id: 'm3', role: 'user', parts: [{ type: 'text', text: 42 }] });
      // Inside a committed append (the file is the format line, m1, m2, a commit, then this one):
      // lines after the last commit would be an interrupted append, not corruption.
      const bad = `${line}\n${JSON.stringify({ id: 'm4', role: 'user', parts: [] })}\n{"$commit":2}\n`;
      await appendFile(`${base}.history.jsonl`, bad);
      return `${base}.history.jsonl: line 5`;
    },
    crashDuringAppend: (sessionId, batches) => crashDuringAppend(factories, `file:${folder()}`)(sessionId, batches),
  });
  for (const test of contract) it(test.name, test.run, 60_000);
});

describe('sqliteStore meets the SessionStore contract', () => {
  const file = () => join(dir, 'sessions.db');
  const contract = sessionStoreContract({
    createStore: () => sqliteStore(file()),
    closeStore: (store: SessionStore) => (store as SqliteStore).close(),
    async corrupt(sessionId, kind: CorruptionKind) {
      const db = new DatabaseSync(file());
      try {
        db.exec('PRAGMA busy_timeout = 10000');
        if (kind === 'record-not-json') {
          db.prepare('UPDATE compaction_records SET record = ? WHERE session_id = ?').run('{"state": {', sessionId);
          return `compaction_records[${JSON.stringify(sessionId)}]`;
        }
        const value =
          kind === 'history-not-json'
            ? '{"id": "m2", "ro'
            : JSON.stringify({ id: 'm2', role: 'user', parts: [{ type: 'text', text: 42 }] });
        db.prepare('UPDATE compaction_messages SET message = ? WHERE session_id = ? AND seq = 1').run(value, sessionId);
        return `compaction_messages[${JSON.stringify(sessionId)}]: entry 1`;
      } finally {
        db.close();
      }
    },
    crashDuringAppend: (sessionId, batches) => crashDuringAppend(factories, `sqlite:${file()}`)(sessionId, batches),
  });
  for (const test of contract) it(test.name, test.run, 60_000);
});

describe('sqliteStore options', () => {
  it('refuses options it cannot use, saying what it got', () => {
    expect(() => sqliteStore(join(dir, 'x.db'), { busyTimeoutMs: -1 })).toThrow(
      /busyTimeoutMs must be a non-negative integer/,
    );
    expect(() => sqliteStore(join(dir, 'x.db'), { synchronous: 'off' as 'full' })).toThrow(
      /synchronous must be 'full' or 'normal', got "off"/,
    );
  });

  it("with synchronous 'normal' keeps what it stored across reopening", async () => {
    const file = join(dir, 'normal.db');
    const store = sqliteStore(file, { synchronous: 'normal' });
    await store.appendHistory('s', [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
    store.close();
    const reopened = sqliteStore(file);
    expect((await reopened.loadHistory('s')).map((message) => message.id)).toEqual(['m1']);
    reopened.close();
  });
});
