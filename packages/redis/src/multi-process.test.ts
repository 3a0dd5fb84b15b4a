import { createClient } from 'redis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runConversationRaces } from '../../core/test/processes/run-conversation-races.js';
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
    await runConversationRaces({
      factoryModule: new URL('../test/store-factory.ts', import.meta.url),
      argument: keyPrefix,
      store: redisStore({ client, keyPrefix }),
      workers: 4,
      turns: 50,
      runs: 20,
    });
  }, 600_000);
});
