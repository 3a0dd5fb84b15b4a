import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConversationRace } from '../../core/test/processes/conversation-race.js';
import { REDIS_URL } from '../test/redis-url.js';
import { redisStore } from './redis-store.js';

// Four server processes on one conversation, compacting as they race: nothing is lost.
// RACE_RUNS raises the number of races (20 by default).
const keyPrefix = `race:${process.pid}:`;
const client = createClient({ url: REDIS_URL });
beforeAll(async () => {
  await client.connect();
});
afterAll(async () => {
  const keys = await client.keys(`${keyPrefix}*`);
  if (keys.length > 0) await client.del(keys);
  client.destroy();
});

describe('processes sharing one conversation on Redis', () => {
  it('4 processes × 50 turns, 20 races: every message once, versions only go up, 0 requests lost', async () => {
    const race = await startConversationRace({
      factoryModule: new URL('../test/store-factory.ts', import.meta.url),
      argument: keyPrefix,
      store: redisStore({ client, keyPrefix }),
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
