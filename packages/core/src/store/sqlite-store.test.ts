import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { HISTORY_PAGE_ROWS } from './sqlite-history-rows.js';
import { sqliteStore } from './sqlite-store.js';

const message = (id: string, text: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text }] });
/** Rows of a few KB, as tool outputs are: longer than a 4 KiB page lets a row keep in its page. */
const history = (count: number, from = 0): Message[] =>
  Array.from({ length: count }, (_, index) =>
    message(`m${from + index}`, `${from + index} ${'output line é\n'.repeat(150)}`),
  );

function pageSize(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
  } finally {
    db.close();
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-sqlite-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sqliteStore', () => {
  it('creates a new database with 16 KiB pages and reads its history back whole', async () => {
    const file = join(dir, 'sessions.db');
    const store = sqliteStore(file);
    const messages = history(40);
    expect(await store.appendHistory('s', messages)).toBe(40);
    expect(await store.loadHistory('s')).toEqual(messages);
    expect(await store.loadHistory('s', { from: 38 })).toEqual(messages.slice(38));
    store.close();
    expect(pageSize(file)).toBe(16_384);
  });

  it('reads a history of several pages back whole, and from any message, page boundaries included', async () => {
    const store = sqliteStore(join(dir, 'pages.db'));
    const messages = history(2 * HISTORY_PAGE_ROWS + 7);
    await store.appendHistory('s', messages);
    await store.appendHistory('t', history(3, 9_000));
    expect(await store.loadHistory('s')).toEqual(messages);
    for (const from of [
      1,
      HISTORY_PAGE_ROWS - 1,
      HISTORY_PAGE_ROWS,
      HISTORY_PAGE_ROWS + 1,
      2 * HISTORY_PAGE_ROWS,
      2 * HISTORY_PAGE_ROWS + 6,
      2 * HISTORY_PAGE_ROWS + 7,
      5_000,
    ])
      expect(await store.loadHistory('s', { from })).toEqual(messages.slice(from));
    store.close();
  });

  it('loads and extends a database written by an earlier release (4 KiB pages), keeping its page size', async () => {
    const file = join(dir, 'earlier.db');
    // What the release before this one created: the same tables, SQLite's default page size.
    const earlier = new DatabaseSync(file);
    earlier.exec('PRAGMA journal_mode = WAL');
    earlier.exec(`
      CREATE TABLE compaction_messages (session_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)) WITHOUT ROWID;
      CREATE TABLE compaction_records (session_id TEXT PRIMARY KEY, revision INTEGER NOT NULL, record TEXT);`);
    const stored = history(30);
    const insert = earlier.prepare('INSERT INTO compaction_messages (session_id, seq, message) VALUES (?, ?, ?)');
    for (const [seq, m] of stored.entries()) insert.run('s', seq, JSON.stringify(m));
    const usage = {
      inputTokens: 12_345,
      contextMessageCount: 30,
      historyLength: 30,
      stateVersion: 0,
      lastMessageId: 'm29',
    };
    earlier
      .prepare('INSERT INTO compaction_records (session_id, revision, record) VALUES (?, ?, ?)')
      .run('s', 3, JSON.stringify({ usage }));
    earlier.close();
    expect(pageSize(file)).toBe(4_096);

    const store = sqliteStore(file);
    expect(await store.loadHistory('s')).toEqual(stored);
    expect(await store.loadRecord('s')).toEqual({ revision: 3, usage });
    const more = history(5, 30);
    expect(await store.appendHistory('s', more)).toBe(35);
    expect(await store.loadHistory('s', { from: 29 })).toEqual([...stored.slice(29), ...more]);
    store.close();
    expect(pageSize(file)).toBe(4_096);
  });

  it('a session restarted over its database decides from the stored usage, counting nothing, and returns every message', async () => {
    let counted = 0;
    const counter: TokenCounter = {
      name: 'chars/4',
      countText: (text) => {
        counted += 1;
        return Math.ceil(text.length / 4);
      },
    };
    const file = join(dir, 'sessions.db');
    const first = sqliteStore(file);
    const settings = { contextWindow: 50_000_000 };
    const before = createCompactionSession({ sessionId: 's', store: first, settings, counter });
    const messages = history(60);
    await before.append(messages);
    await before.recordUsage({ inputTokens: (await before.prepare()).tokens });
    first.close();

    const store = sqliteStore(file);
    const events: string[] = [];
    const session = createCompactionSession({
      sessionId: 's',
      store,
      settings,
      counter,
      onEvent: (event) => events.push(event.type),
    });
    counted = 0;
    const prepared = await session.prepare();
    expect(prepared.messages).toEqual(messages);
    expect(prepared.compaction).toBeUndefined();
    await session.recordUsage({ inputTokens: prepared.tokens });
    expect(counted).toBe(0);
    expect((await store.loadRecord('s'))?.usage?.historyLength).toBe(60);
    expect(events).not.toContain('store:error');
    store.close();
  });
});
