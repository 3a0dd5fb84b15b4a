import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { readHistoryRows, returnArrays } from './sqlite-history-rows.js';
import { sqliteStore } from './sqlite-store.js';

// Review of the paged history read (issue 16, session 8), session 9: another process rewrites
// and appends to the session's rows in transactions while this one loads the history, page by
// page. Every load must be one committed state: one generation, its rows 0..n-1 with no gap,
// never the end of one rewrite after the start of another (a torn view across pages).

/**
 * The other process: for `ms`, rewrites the session whole (DELETE + INSERT of `rows` rows of a
 * new generation, as `clear` + `appendHistory` would in one transaction) or appends a few rows of
 * the current generation (as `appendHistory`), each in its own `BEGIN IMMEDIATE` transaction.
 */
const WRITER = `
const { DatabaseSync } = require('node:sqlite');
const [file, ms, rows] = process.argv.slice(1);
const db = new DatabaseSync(file);
db.exec('PRAGMA busy_timeout = 10000');
const insert = db.prepare('INSERT INTO compaction_messages (session_id, seq, message) VALUES (?, ?, ?)');
const length = db.prepare('SELECT COALESCE(MAX(seq) + 1, 0) AS n FROM compaction_messages WHERE session_id = ?');
const text = (gen, i) => JSON.stringify({ id: 'g' + gen + '-m' + i, role: 'user', parts: [{ type: 'text', text: 'generation ' + gen + ' message ' + i }] });
let gen = 1;
let writes = 0;
const end = Date.now() + Number(ms);
while (Date.now() < end) {
  db.exec('BEGIN IMMEDIATE');
  if (writes % 3 === 0) {
    gen += 1;
    db.exec("DELETE FROM compaction_messages WHERE session_id = 's'");
    const n = Number(rows) + (writes % 7) * 37;
    for (let i = 0; i < n; i++) insert.run('s', i, text(gen, i));
  } else {
    const before = Number(length.get('s').n);
    for (let i = 0; i < 1 + (writes % 5); i++) insert.run('s', before + i, text(gen, before + i));
  }
  db.exec('COMMIT');
  writes += 1;
}
process.stdout.write(String(writes));
`;

/** Whether `messages` is one generation's rows 0..n-1, each in its place; the problem otherwise. */
function tornAt(messages: readonly Message[]): string | undefined {
  if (messages.length === 0) return undefined;
  const generation = /^g(\d+)-m0$/.exec(messages[0]!.id)?.[1];
  if (generation === undefined) return `first message ${messages[0]!.id}`;
  for (let index = 0; index < messages.length; index += 1) {
    if (messages[index]!.id !== `g${generation}-m${index}`) return `message ${index} is ${messages[index]!.id}`;
  }
  return undefined;
}

function runWriter(file: string, ms: number, rows: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', WRITER, file, String(ms), String(rows)], { stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(Number(out)) : reject(new Error(`writer exited ${code}: ${err}`)),
    );
  });
}

describe('sqliteStore paged history reads while another process writes (review)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-sqlite-review-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loadHistory sees one committed state, never a torn one, across pages', async () => {
    const file = join(dir, 'torn.db');
    const store = sqliteStore(file);
    try {
      await store.loadHistory('s'); // creates the tables
      const writer = runWriter(file, 2_500, 700);
      const seen = new Set<number>();
      let loads = 0;
      let settled = false;
      void writer.finally(() => {
        settled = true;
      });
      while (!settled) {
        const messages = await store.loadHistory('s');
        expect(tornAt(messages)).toBeUndefined();
        seen.add(messages.length);
        loads += 1;
        // A load from a later seq reads the same committed state from there on.
        const from = Math.floor(messages.length / 2);
        const tail = await store.loadHistory('s', { from });
        const generation = tail[0] ? /^g(\d+)-/.exec(tail[0].id)?.[1] : undefined;
        for (const [index, message] of tail.entries()) expect(message.id).toBe(`g${generation}-m${from + index}`);
        // The loads are synchronous underneath: let the event loop see the writer's exit.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const writes = await writer;
      // The writer committed many transactions while we read, and we saw histories of many lengths.
      expect(writes).toBeGreaterThan(20);
      expect(loads).toBeGreaterThan(20);
      expect(seen.size).toBeGreaterThan(5);
    } finally {
      store.close?.();
    }
  }, 30_000);

  it('readHistoryRows with pages of a few rows sees one committed state (every page boundary a chance to tear)', async () => {
    const file = join(dir, 'pages.db');
    const store = sqliteStore(file);
    await store.loadHistory('s');
    store.close?.();
    const db = new DatabaseSync(file);
    try {
      db.exec('PRAGMA busy_timeout = 10000');
      const statement = returnArrays(
        db.prepare(
          'SELECT message, seq FROM compaction_messages WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?',
        ),
      );
      const writer = runWriter(file, 2_500, 300);
      let settled = false;
      void writer.finally(() => {
        settled = true;
      });
      let loads = 0;
      while (!settled) {
        for (const pageRows of [1, 3, 7]) {
          const messages = readHistoryRows(db, statement, 's', 0, 'pages.db', pageRows);
          expect(tornAt(messages)).toBeUndefined();
          loads += 1;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await writer).toBeGreaterThan(20);
      expect(loads).toBeGreaterThan(20);
    } finally {
      db.close();
    }
  }, 30_000);
});
