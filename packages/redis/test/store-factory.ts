// Opened by child processes (the crash and multi-process tests): `createStore(keyPrefix)`.
import { createClient } from 'redis';
import { redisStore } from '../src/redis-store.js';
import { REDIS_URL } from './redis-url.js';

/** A store on its own connection, as a separate server process would have. */
export async function createStore(keyPrefix: string) {
  const client = await createClient({ url: REDIS_URL }).connect();
  return redisStore({ client, keyPrefix });
}
