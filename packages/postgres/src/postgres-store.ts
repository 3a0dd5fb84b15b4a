import {
  checkExpectedRevision,
  checkFrom,
  decodeMessage,
  decodeRecord,
  encodeMessages,
  encodeRecord,
  type Message,
  type SessionRecord,
  type SessionStore,
  StoreConflictError,
  StoreError,
  type StoreOperation,
} from '@compaction/core';
import { checkPostgresOptions } from './check-postgres-options.js';
import type { PostgresClient, PostgresPool } from './postgres-pool.js';

/** Options of {@link postgresStore}. */
export type PostgresStoreOptions = {
  /** A `pg` `Pool` (the store checks connections out of it for transactions and never ends it). */
  pool: PostgresPool;
  /**
   * Prefix of the two table names (`<prefix>sessions`, `<prefix>messages`):
   * lowercase letters, digits and `_`, optionally schema-qualified (`app.compaction_`).
   * @default 'compaction_'
   */
  tablePrefix?: string;
  /**
   * Create the tables on first use (`CREATE TABLE IF NOT EXISTS`, under an
   * advisory lock so several servers starting at once do not collide). Turn
   * off when migrations are run separately: {@link PostgresStore.migrationSql} gives the SQL.
   * @default true
   */
  createTables?: boolean;
};

/** A {@link SessionStore} on PostgreSQL; see {@link postgresStore}. */
export type PostgresStore = SessionStore & {
  /** The SQL that creates the tables (what `createTables` runs), for a migration tool. */
  readonly migrationSql: string;
  /** Creates the tables now, if missing (otherwise done on first use). */
  migrate(): Promise<void>;
};

const PREFIX = /^([a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/;

/**
 * A {@link SessionStore} on PostgreSQL through a `pg` pool, for chat servers
 * that run many processes (or serverless functions) on one conversation.
 *
 * Two tables: `<prefix>sessions` (one row a session: the record, its revision
 * and the history length) and `<prefix>messages` (one row a message, keyed by
 * session and position). An append is one transaction that locks the session
 * row, so concurrent appends land one after the other and a reader (a
 * snapshot) sees all of an append or none. `saveRecord` with
 * `expectedRevision` is compare-and-set: `UPDATE … WHERE revision = $n`, and
 * a `StoreConflictError` when another server saved first. `clear` keeps the
 * session row (without record), so revisions never repeat.
 *
 * The options are checked when the store is made: not an object (a connection
 * string), an unknown key, a `pg.Client` for `pool` or a `createTables` that is
 * not a boolean throws `InvalidSettingsError`; a `pool` without `query`/`connect`
 * or a `tablePrefix` that is not a plain identifier throws `StoreError`.
 *
 * @example
 * import pg from 'pg';
 * const store = postgresStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  checkPostgresOptions(options);
  const prefix = options.tablePrefix ?? 'compaction_';
  if (!PREFIX.test(prefix)) {
    throw new StoreError({
      operation: 'loadHistory',
      source: 'postgresStore',
      problem: `tablePrefix must be lowercase letters, digits and _ (optionally "schema."), got ${JSON.stringify(prefix)}`,
    });
  }
  if (typeof options.pool?.query !== 'function' || typeof options.pool.connect !== 'function') {
    throw new StoreError({
      operation: 'loadHistory',
      source: 'postgresStore',
      problem: 'options.pool must be a pg Pool (with query() and connect())',
    });
  }
  const { pool } = options;
  const sessions = `${prefix}sessions`;
  const messages = `${prefix}messages`;
  const migrationSql = [
    `CREATE TABLE IF NOT EXISTS ${sessions} (session_id text PRIMARY KEY, revision bigint NOT NULL DEFAULT 0, record text, history_length bigint NOT NULL DEFAULT 0)`,
    `CREATE TABLE IF NOT EXISTS ${messages} (session_id text NOT NULL, seq bigint NOT NULL, message text NOT NULL, PRIMARY KEY (session_id, seq))`,
  ].join(';\n');
  let ready: Promise<void> | undefined = options.createTables === false ? Promise.resolve() : undefined;
  const historyKey = (sessionId: string) => `${messages}[${JSON.stringify(sessionId)}]`;
  const recordKey = (sessionId: string) => `${sessions}[${JSON.stringify(sessionId)}]`;

  async function migrate(): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // One creator at a time across servers: concurrent CREATE TABLE IF NOT EXISTS can collide.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [sessions]);
      for (const statement of migrationSql.split(';\n')) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async function ensureTables(): Promise<void> {
    ready ??= migrate().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  /** Runs `task`, wrapping database failures in a {@link StoreError} naming the key. */
  async function run<T>(operation: StoreOperation, source: string, task: () => Promise<T>): Promise<T> {
    try {
      await ensureTables();
      return await task();
    } catch (error) {
      throw StoreError.wrap(error, operation, source);
    }
  }

  /** Runs `task` in a transaction on one pooled connection. */
  async function transaction<T>(task: (client: PostgresClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await task(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => {
        broken = rollback;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Locks the session row (creating it empty when missing) for the rest of the transaction. */
  async function lockSession(client: PostgresClient, sessionId: string) {
    await client.query(`INSERT INTO ${sessions} (session_id) VALUES ($1) ON CONFLICT (session_id) DO NOTHING`, [
      sessionId,
    ]);
    const { rows } = await client.query(
      `SELECT revision, record, history_length FROM ${sessions} WHERE session_id = $1 FOR UPDATE`,
      [sessionId],
    );
    const row = rows[0] as { revision: string; record: string | null; history_length: string };
    return { revision: Number(row.revision), record: row.record, length: Number(row.history_length) };
  }

  return {
    migrationSql,
    migrate: () => run('loadHistory', sessions, async () => undefined), // run() creates the tables first.

    async loadHistory(sessionId, loadOptions = {}) {
      const source = historyKey(sessionId);
      const from = checkFrom(loadOptions, source);
      return run('loadHistory', source, async () => {
        const { rows } = await pool.query(
          `SELECT seq, message FROM ${messages} WHERE session_id = $1 AND seq >= $2 ORDER BY seq`,
          [sessionId, from],
        );
        return rows.map((row): Message => decodeMessage(row.message as string, source, `entry ${row.seq as string}`));
      });
    },

    async appendHistory(sessionId, appended) {
      const source = historyKey(sessionId);
      const texts = encodeMessages(appended, source);
      return run('appendHistory', source, () =>
        transaction(async (client) => {
          const { length } = await lockSession(client, sessionId);
          if (texts.length === 0) return length;
          await client.query(
            `INSERT INTO ${messages} (session_id, seq, message) SELECT $1, $2::bigint + n - 1, m FROM unnest($3::text[]) WITH ORDINALITY AS t(m, n)`,
            [sessionId, length, texts],
          );
          await client.query(`UPDATE ${sessions} SET history_length = $2 WHERE session_id = $1`, [
            sessionId,
            length + texts.length,
          ]);
          return length + texts.length;
        }),
      );
    },

    loadRecord(sessionId) {
      const source = recordKey(sessionId);
      return run('loadRecord', source, async (): Promise<SessionRecord | undefined> => {
        const { rows } = await pool.query(`SELECT revision, record FROM ${sessions} WHERE session_id = $1`, [
          sessionId,
        ]);
        const row = rows[0] as { revision: string; record: string | null } | undefined;
        if (row === undefined || row.record === null) return undefined;
        return decodeRecord(row.record, source, Number(row.revision), 'row');
      });
    },

    async saveRecord(sessionId, value, saveOptions = {}) {
      const source = recordKey(sessionId);
      const text = encodeRecord(value, source);
      const expectedRevision = checkExpectedRevision(saveOptions, source);
      return run('saveRecord', source, async () => {
        if (expectedRevision === undefined) {
          const { rows } = await pool.query(
            `INSERT INTO ${sessions} (session_id, revision, record) VALUES ($1, 1, $2) ON CONFLICT (session_id) DO UPDATE SET revision = ${sessions}.revision + 1, record = excluded.record RETURNING revision`,
            [sessionId, text],
          );
          return Number(rows[0]?.revision);
        }
        if (expectedRevision > 0) {
          // The common case in one round trip: compare-and-set by the revision.
          const { rows } = await pool.query(
            `UPDATE ${sessions} SET revision = revision + 1, record = $2 WHERE session_id = $1 AND revision = $3 AND record IS NOT NULL RETURNING revision`,
            [sessionId, text, expectedRevision],
          );
          if (rows[0]) return Number(rows[0].revision);
        }
        return transaction(async (client) => {
          const row = await lockSession(client, sessionId);
          let actual = row.record === null ? 0 : row.revision;
          if (actual !== expectedRevision && row.record !== null) {
            try {
              decodeRecord(row.record, source, row.revision, 'row');
            } catch {
              actual = 0; // An unreadable record is set aside: a record computed from nothing may replace it.
            }
          }
          if (actual !== expectedRevision) {
            throw new StoreConflictError({ sessionId, source, expectedRevision, actualRevision: actual });
          }
          await client.query(`UPDATE ${sessions} SET revision = $2, record = $3 WHERE session_id = $1`, [
            sessionId,
            row.revision + 1,
            text,
          ]);
          return row.revision + 1;
        });
      });
    },

    clear(sessionId) {
      return run('clear', historyKey(sessionId), () =>
        transaction(async (client) => {
          await lockSession(client, sessionId);
          await client.query(`DELETE FROM ${messages} WHERE session_id = $1`, [sessionId]);
          await client.query(`UPDATE ${sessions} SET record = NULL, history_length = 0 WHERE session_id = $1`, [
            sessionId,
          ]);
        }),
      );
    },
  };
}
