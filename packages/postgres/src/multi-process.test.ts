import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startConversationRace } from '../../core/test/processes/conversation-race.js';
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
    const race = await startConversationRace({
      factoryModule: new URL('../test/store-factory.ts', import.meta.url),
      argument: tablePrefix,
      store,
      workers: 4,
      turns: 50,
    });
    try {
      for (let run = 0; run < Math.max(20, Number(process.env.RACE_RUNS ?? 0)); run++) {
        const outcome = await race.race(`race-${run}`);
        expect(outcome, `race ${run}`).toMatchObject({ duplicated: [], missing: [], lost: [], versionWentBack: [] });
        expect(outcome.version).toBeGreaterThan(0);
        expect(outcome.compactions, `race ${run}: every saved compaction is a new version`).toBe(outcome.version);
      }
    } finally {
      await race.stop();
    }
  }, 600_000);
});
