import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { runConversationRaces } from '../../core/test/processes/run-conversation-races.js';
import { POSTGRES_URL } from '../test/postgres-url.js';
import { postgresStore } from './postgres-store.js';

// Four server processes on one conversation, compacting as they race: nothing is lost.
// RACE_RUNS raises the number of races (20 by default).
const tablePrefix = `race_${process.pid}_`;
const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${tablePrefix}messages, ${tablePrefix}sessions`);
  await pool.end();
});

describe('processes sharing one conversation on PostgreSQL', () => {
  it('4 processes × 50 turns, 20 races: every message once, versions only go up, 0 requests lost', async () => {
    const store = postgresStore({ pool, tablePrefix });
    await store.migrate();
    await runConversationRaces({
      factoryModule: new URL('../test/store-factory.ts', import.meta.url),
      argument: tablePrefix,
      store,
      workers: 4,
      turns: 50,
      runs: 20,
    });
  }, 600_000);
});
