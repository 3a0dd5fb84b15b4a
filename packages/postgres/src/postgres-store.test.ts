import { type SessionStore, StoreError } from '@compaction/core';
import { sessionStoreContract } from '@compaction/core/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { crashDuringAppend } from '../../core/test/processes/crash-during-append.js';
import { POSTGRES_URL } from '../test/postgres-url.js';
import { postgresStore } from './postgres-store.js';

const tablePrefix = `test_${process.pid}_`;
const pools = new Map<SessionStore, pg.Pool>();
const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
const factories = new URL('../test/store-factory.ts', import.meta.url);

afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${tablePrefix}messages, ${tablePrefix}sessions`);
  await admin.end();
});

describe('postgresStore meets the SessionStore contract', () => {
  const contract = sessionStoreContract({
    createStore() {
      const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 3 });
      const store = postgresStore({ pool, tablePrefix });
      pools.set(store, pool);
      return store;
    },
    async closeStore(store) {
      await pools.get(store)?.end();
      pools.delete(store);
    },
    async corrupt(sessionId, kind) {
      if (kind === 'record-not-json') {
        await admin.query(`UPDATE ${tablePrefix}sessions SET record = $2 WHERE session_id = $1`, [
          sessionId,
          '{"state": {',
        ]);
        return `${tablePrefix}sessions[${JSON.stringify(sessionId)}]`;
      }
      const value =
        kind === 'history-not-json'
          ? '{"id": "m2", "ro'
          : JSON.stringify({ id: 'm2', role: 'user', parts: [{ type: 'text', text: 42 }] });
      await admin.query(`UPDATE ${tablePrefix}messages SET message = $2 WHERE session_id = $1 AND seq = 1`, [
        sessionId,
        value,
      ]);
      return `${tablePrefix}messages[${JSON.stringify(sessionId)}]: entry 1`;
    },
    crashDuringAppend: (sessionId, batches) => crashDuringAppend(factories, tablePrefix)(sessionId, batches),
  });
  for (const test of contract) it(test.name, test.run, 60_000);
});

describe('postgresStore', () => {
  it('refuses a table prefix that is not a plain identifier, and a pool that is not one', () => {
    expect(() => postgresStore({ pool: admin, tablePrefix: 'x; DROP TABLE y' })).toThrow(StoreError);
    expect(() => postgresStore({ pool: {} as pg.Pool })).toThrow(/options\.pool must be a pg Pool/);
  });

  it('reports a server it cannot reach as a StoreError naming the key, with the cause', async () => {
    const pool = new pg.Pool({
      connectionString: 'postgres://postgres@127.0.0.1:1/postgres',
      connectionTimeoutMillis: 2000,
    });
    const store = postgresStore({ pool, tablePrefix });
    const error = await store
      .appendHistory('s', [{ id: 'm', role: 'user', parts: [] }])
      .catch((reason: unknown) => reason);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).message).toMatch(new RegExp(`${tablePrefix}messages\\["s"\\]`));
    expect((error as StoreError).cause).toBeDefined();
    await pool.end();
  });

  it('creates its tables once even when many stores start at once, and gives the SQL for migrations', async () => {
    const prefix = `${tablePrefix}fresh_`;
    const stores = Array.from({ length: 6 }, () => postgresStore({ pool: admin, tablePrefix: prefix }));
    await Promise.all(
      stores.map((store, index) => store.appendHistory('s', [{ id: `m${index}`, role: 'user', parts: [] }])),
    );
    expect((await stores[0]?.loadHistory('s'))?.length).toBe(6);
    expect(stores[0]?.migrationSql).toMatch(new RegExp(`CREATE TABLE IF NOT EXISTS ${prefix}sessions`));
    await admin.query(`DROP TABLE ${prefix}messages, ${prefix}sessions`);
  });
});
