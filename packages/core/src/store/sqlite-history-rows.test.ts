import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidStateError } from '../errors/invalid-state-error.js';
import type { Message } from '../messages/types.js';
import { decodeHistoryRows, HISTORY_PAGE_ROWS, readHistoryRows, returnArrays } from './sqlite-history-rows.js';

const SOURCE = 'sessions.db compaction_messages["s"]';
const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `text of ${id} ✓` }] });

describe('decodeHistoryRows', () => {
  it('reads rows as arrays and as objects (Node without setReturnArrays) alike', () => {
    const messages = [message('a'), message('b'), message('c')];
    const arrays = messages.map((m, seq): [string, number] => [JSON.stringify(m), seq + 4]);
    const objects = arrays.map(([text, seq]) => ({ message: text, seq }));
    expect(decodeHistoryRows(arrays, SOURCE)).toEqual(messages);
    expect(decodeHistoryRows(objects, SOURCE)).toEqual(messages);
    expect(decodeHistoryRows([], SOURCE)).toEqual([]);
  });

  it('names the entry of a row that is no message, in either shape', () => {
    const rows: [string, number][] = [
      [JSON.stringify(message('a')), 7],
      ['{"id": "b", "ro', 8],
    ];
    for (const shape of [rows, rows.map(([text, seq]) => ({ message: text, seq }))]) {
      let error: unknown;
      try {
        decodeHistoryRows(shape, SOURCE);
      } catch (caught) {
        error = caught;
      }
      expect(InvalidStateError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`${SOURCE}`);
      expect((error as Error).message).toContain('entry 8 is not valid JSON');
    }
  });
});

describe('returnArrays', () => {
  it("makes a node:sqlite statement return each row as an array of its columns, in the query's order", () => {
    const db = new DatabaseSync(':memory:');
    try {
      db.exec("CREATE TABLE t (seq INTEGER, message TEXT); INSERT INTO t VALUES (0, 'x'), (1, 'y');");
      const rows = returnArrays(db.prepare('SELECT message, seq FROM t ORDER BY seq')).all();
      expect(rows).toEqual([
        ['x', 0],
        ['y', 1],
      ]);
    } finally {
      db.close();
    }
  });
});

/** The history table and query of `sqliteStore`. */
const TABLE =
  'CREATE TABLE compaction_messages (session_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL, ' +
  'PRIMARY KEY (session_id, seq)) WITHOUT ROWID';
const QUERY = 'SELECT message, seq FROM compaction_messages WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?';

function fill(db: DatabaseSync, sessionId: string, messages: readonly Message[], first = 0): void {
  const insert = db.prepare('INSERT INTO compaction_messages (session_id, seq, message) VALUES (?, ?, ?)');
  for (const [index, m] of messages.entries()) insert.run(sessionId, first + index, JSON.stringify(m));
}

describe('readHistoryRows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-history-rows-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads page by page exactly what one query of every row from `from` reads, for any page size, in either row shape', () => {
    const db = new DatabaseSync(':memory:');
    try {
      db.exec(TABLE);
      const whole = db.prepare(
        'SELECT message, seq FROM compaction_messages WHERE session_id = ? AND seq >= ? ORDER BY seq',
      );
      let session = 0;
      fc.assert(
        fc.property(
          fc.nat({ max: 30 }),
          fc.nat({ max: 35 }),
          fc.integer({ min: 1, max: 8 }),
          fc.boolean(),
          (count, from, pageRows, arrays) => {
            const sessionId = `s${session++}`;
            const messages = Array.from({ length: count }, (_, index) => message(`${sessionId}-m${index}`));
            fill(db, sessionId, messages);
            // Another session's rows on either side must not leak in.
            fill(db, `${sessionId}-other`, [message('x')]);
            const statement = db.prepare(QUERY);
            if (arrays) returnArrays(statement);
            const read = readHistoryRows(db, statement, sessionId, from, SOURCE, pageRows);
            expect(read).toEqual(decodeHistoryRows(whole.all(sessionId, from) as never, SOURCE));
            expect(read).toEqual(messages.slice(from));
            expect(db.isTransaction).toBe(false);
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      db.close();
    }
  });

  it('reads every page from one snapshot: a clear and a new history another connection commits between pages are not seen', () => {
    const file = join(dir, 'snapshot.db');
    const db = new DatabaseSync(file);
    const other = new DatabaseSync(file);
    try {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(TABLE);
      const before = Array.from({ length: 10 }, (_, index) => message(`old${index}`));
      fill(db, 's', before);
      const statement = returnArrays(db.prepare(QUERY));
      let pages = 0;
      // The real statement; after its first page, another connection replaces the history.
      const interleaved = {
        all: (...values: never[]) => {
          const rows = statement.all(...values);
          if (pages++ === 0) {
            other.exec("DELETE FROM compaction_messages WHERE session_id = 's'");
            fill(other, 's', [message('new0'), message('new1')]);
            fill(other, 's', [message('new-late')], 10);
          }
          return rows;
        },
      } as unknown as StatementSync;
      expect(readHistoryRows(db, interleaved, 's', 0, SOURCE, 3)).toEqual(before);
      expect(pages).toBe(4);
      // The next read sees what the other connection committed.
      expect(readHistoryRows(db, statement, 's', 0, SOURCE, 3).map((m) => m.id)).toEqual(['new0', 'new1', 'new-late']);
    } finally {
      other.close();
      db.close();
    }
  });

  it('names a corrupt row on a later page, and leaves no transaction open', () => {
    const db = new DatabaseSync(':memory:');
    try {
      db.exec(TABLE);
      fill(
        db,
        's',
        Array.from({ length: HISTORY_PAGE_ROWS + 5 }, (_, index) => message(`m${index}`)),
      );
      db.prepare('UPDATE compaction_messages SET message = \'{"id":"m"}\' WHERE seq = ?').run(HISTORY_PAGE_ROWS + 2);
      const statement = returnArrays(db.prepare(QUERY));
      expect(() => readHistoryRows(db, statement, 's', 0, SOURCE)).toThrow(
        `entry ${HISTORY_PAGE_ROWS + 2} is not a message`,
      );
      expect(db.isTransaction).toBe(false);
      expect(readHistoryRows(db, statement, 's', HISTORY_PAGE_ROWS + 3, SOURCE).map((m) => m.id)).toEqual([
        `m${HISTORY_PAGE_ROWS + 3}`,
        `m${HISTORY_PAGE_ROWS + 4}`,
      ]);
    } finally {
      db.close();
    }
  });
});
