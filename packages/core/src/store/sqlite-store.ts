import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { checkDatabasePath } from './check-database-path.js';
import { checkExpectedRevision, checkFrom } from './check-options.js';
import { checkStoreOptions } from './check-store-options.js';
import { decodeRecord } from './codec/decode-record.js';
import { encodeMessages } from './codec/encode-messages.js';
import { encodeRecord } from './codec/encode-record.js';
import { StoreConflictError } from './errors/store-conflict-error.js';
import { StoreError, type StoreOperation } from './errors/store-error.js';
import { loadNodeSqlite } from './load-node-sqlite.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import { readHistoryRows, returnArrays } from './sqlite-history-rows.js';

/** Rolls back the open transaction, if any (a failed COMMIT may have ended it already). */
function rollback(db: DatabaseSync): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    // No transaction was open.
  }
}

/** Whether a `node:sqlite` error is SQLITE_BUSY or SQLITE_LOCKED (another connection holds a lock). */
function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: number }).errcode;
  return code !== undefined && ((code & 0xff) === 5 || (code & 0xff) === 6);
}

/** Options of {@link sqliteStore}. */
export type SqliteStoreOptions = {
  /**
   * How long a write waits for another connection (another process) that
   * holds the database's write lock before it throws {@link StoreError}.
   * @default 10000
   */
  busyTimeoutMs?: number;
  /**
   * SQLite's `synchronous` setting. `'full'` syncs every commit to disk (a
   * power cut loses nothing that was committed); `'normal'` syncs the WAL only
   * at checkpoints: several times faster per write, and still safe when the
   * process crashes, but a power cut may lose the last commits.
   * @default 'full'
   */
  synchronous?: 'full' | 'normal';
};

/** Every option of {@link sqliteStore}; typed against the options type, so a new one is not refused as unknown. */
const SQLITE_STORE_OPTION_KEYS = Object.keys({ busyTimeoutMs: true, synchronous: true } satisfies Record<
  keyof SqliteStoreOptions,
  true
>);

/** A {@link SessionStore} on one SQLite file; see {@link sqliteStore}. */
export type SqliteStore = SessionStore & {
  /** Closes the database connection. Later calls throw. */
  close(): void;
};

type Statements = {
  history: StatementSync;
  length: StatementSync;
  insert: StatementSync;
  record: StatementSync;
  upsert: StatementSync;
  clearHistory: StatementSync;
  clearRecord: StatementSync;
};

/**
 * The page size of a database this store creates. SQLite's default (4 KiB)
 * leaves a message row of the `WITHOUT ROWID` table at most ~1 KB in its
 * page and chains the rest through overflow pages, one read each: a typical
 * history of tool outputs then fills 6,000 pages for 10 MB. With 16 KiB
 * pages most messages fit in their leaf page, the file is half the size and
 * reading a long history back costs a third less.
 */
const PAGE_SIZE = 16_384;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS compaction_messages (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS compaction_records (
  session_id TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  record TEXT
);`;

/**
 * A {@link SessionStore} on SQLite through Node's built-in `node:sqlite` (no
 * dependency): the durable default for one machine. All sessions share one
 * file, in two tables created on first use (`compaction_messages`: one row a
 * message, keyed by session and position; `compaction_records`: the record
 * and its revision). Every write is a transaction, the journal is WAL, and
 * several processes on the machine may share the file: appends and
 * compare-and-set saves are serialized by SQLite's write lock.
 *
 * Needs Node 22.13+ (22.12 with `--experimental-sqlite`); the module is
 * loaded on first use, and a Node without it gets a {@link StoreError} saying so.
 *
 * The path is checked when the store is made: `''`, a folder, a path through a
 * file, an existing file that is not an SQLite database (an empty file is a new
 * one) or an unknown option key throws `InvalidSettingsError` at once.
 *
 * @param path - The database file (created when missing, its folder too), or `:memory:`.
 * @example
 * const store = sqliteStore('.compaction/sessions.db');
 * const session = createCompactionSession({ sessionId: 'chat-1', store });
 */
export function sqliteStore(path: string, options?: SqliteStoreOptions): SqliteStore {
  const file = checkDatabasePath(path);
  const given = checkStoreOptions(options, SQLITE_STORE_OPTION_KEYS, 'sqliteStore');
  const busyTimeoutMs = given.busyTimeoutMs ?? 10_000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new StoreError({
      operation: 'loadHistory',
      source: file,
      problem: `busyTimeoutMs must be a non-negative integer of milliseconds, got ${String(busyTimeoutMs)}`,
    });
  }
  const synchronous = given.synchronous ?? 'full';
  if (synchronous !== 'full' && synchronous !== 'normal') {
    throw new StoreError({
      operation: 'loadHistory',
      source: file,
      problem: `synchronous must be 'full' or 'normal', got ${JSON.stringify(synchronous)}`,
    });
  }
  let opening: Promise<{ db: DatabaseSync; statements: Statements }> | undefined;
  let closed = false;
  const historyKey = (sessionId: string) => `${file} compaction_messages[${JSON.stringify(sessionId)}]`;
  const recordKey = (sessionId: string) => `${file} compaction_records[${JSON.stringify(sessionId)}]`;

  async function open(operation: StoreOperation, source: string) {
    if (closed) throw new StoreError({ operation, source, problem: 'the store was closed' });
    opening ??= (async () => {
      const { DatabaseSync } = await loadNodeSqlite(operation, source);
      // The database's folder is created like fileStore's: when missing, at first use. Synchronous,
      // as the database calls are: opening yields to nothing a caller's loop of reads could starve.
      if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
      const db = new DatabaseSync(file);
      // Switching to WAL needs the database to itself, and SQLite answers "database is locked"
      // at once (no busy wait) when processes open a new file together: retry until the timeout.
      const deadline = Date.now() + busyTimeoutMs;
      for (let delay = 2; ; delay = Math.min(delay * 2, 100)) {
        try {
          db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
          // Takes effect only on a new, empty database (an existing one keeps its page size).
          db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
          db.exec('PRAGMA journal_mode = WAL');
          db.exec(`PRAGMA synchronous = ${synchronous.toUpperCase()}`);
          db.exec(`BEGIN IMMEDIATE; ${SCHEMA} COMMIT;`);
          break;
        } catch (error) {
          rollback(db);
          if (!isBusy(error) || Date.now() >= deadline) {
            db.close();
            throw error;
          }
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
      const statements: Statements = {
        history: returnArrays(
          db.prepare(
            'SELECT message, seq FROM compaction_messages WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?',
          ),
        ),
        length: db.prepare('SELECT COALESCE(MAX(seq) + 1, 0) AS n FROM compaction_messages WHERE session_id = ?'),
        insert: db.prepare('INSERT INTO compaction_messages (session_id, seq, message) VALUES (?, ?, ?)'),
        record: db.prepare('SELECT revision, record FROM compaction_records WHERE session_id = ?'),
        upsert: db.prepare(
          'INSERT INTO compaction_records (session_id, revision, record) VALUES (?, ?, ?) ' +
            'ON CONFLICT (session_id) DO UPDATE SET revision = excluded.revision, record = excluded.record',
        ),
        clearHistory: db.prepare('DELETE FROM compaction_messages WHERE session_id = ?'),
        clearRecord: db.prepare('UPDATE compaction_records SET record = NULL WHERE session_id = ?'),
      };
      return { db, statements };
    })();
    try {
      return await opening;
    } catch (error) {
      opening = undefined;
      throw error;
    }
  }

  /** Runs `task` (synchronous SQL) in one write transaction, wrapping database failures in a {@link StoreError}. */
  async function run<T>(
    operation: StoreOperation,
    source: string,
    write: boolean,
    task: (statements: Statements, db: DatabaseSync) => T,
  ): Promise<T> {
    try {
      const { db, statements } = await open(operation, source);
      if (!write) return task(statements, db);
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = task(statements, db);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        rollback(db);
        throw error;
      }
    } catch (error) {
      throw StoreError.wrap(error, operation, source);
    }
  }

  /** The stored revision for compare-and-set: 0 when there is no record, or it is unreadable (set aside). */
  function currentRevision(statements: Statements, sessionId: string): number {
    const row = statements.record.get(sessionId) as { revision: number; record: string | null } | undefined;
    if (row === undefined || row.record === null) return 0;
    try {
      decodeRecord(row.record, recordKey(sessionId), row.revision, 'row');
      return row.revision;
    } catch {
      return 0;
    }
  }

  return {
    async loadHistory(sessionId, loadOptions = {}) {
      const source = historyKey(sessionId);
      const from = checkFrom(loadOptions, source);
      return run('loadHistory', source, false, ({ history }, db) =>
        readHistoryRows(db, history, sessionId, from, source),
      );
    },

    async appendHistory(sessionId, messages) {
      const source = historyKey(sessionId);
      const texts = encodeMessages(messages, source);
      return run('appendHistory', source, true, ({ length, insert }) => {
        const before = Number((length.get(sessionId) as { n: number }).n);
        for (const [index, text] of texts.entries()) insert.run(sessionId, before + index, text);
        return before + texts.length;
      });
    },

    loadRecord(sessionId) {
      const source = recordKey(sessionId);
      return run('loadRecord', source, false, ({ record }): SessionRecord | undefined => {
        const row = record.get(sessionId) as { revision: number; record: string | null } | undefined;
        if (row === undefined || row.record === null) return undefined;
        return decodeRecord(row.record, source, row.revision, 'row');
      });
    },

    async saveRecord(sessionId, value, saveOptions = {}) {
      const source = recordKey(sessionId);
      const text = encodeRecord(value, source);
      const expectedRevision = checkExpectedRevision(saveOptions, source);
      return run('saveRecord', source, true, (statements) => {
        const row = statements.record.get(sessionId) as { revision: number } | undefined;
        if (expectedRevision !== undefined) {
          const actual = currentRevision(statements, sessionId);
          if (actual !== expectedRevision) {
            throw new StoreConflictError({ sessionId, source, expectedRevision, actualRevision: actual });
          }
        }
        const revision = (row?.revision ?? 0) + 1;
        statements.upsert.run(sessionId, revision, text);
        return revision;
      });
    },

    clear(sessionId) {
      return run('clear', historyKey(sessionId), true, ({ clearHistory, clearRecord }) => {
        clearHistory.run(sessionId);
        clearRecord.run(sessionId);
      });
    },

    close() {
      closed = true;
      void opening?.then(
        ({ db }) => db.close(),
        () => undefined,
      );
    },
  };
}
