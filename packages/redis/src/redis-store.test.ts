import { type SessionStore, StoreError } from '@compaction/core';
import { sessionStoreContract } from '@compaction/core/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashDuringAppend } from '../../core/test/processes/crash-during-append.js';
import { REDIS_URL } from '../test/redis-url.js';
import { redisStore } from './redis-store.js';

type Client = ReturnType<typeof createClient>;

const keyPrefix = `test:${process.pid}:`;
const clients = new Map<SessionStore, Client>();
let admin: Client;
const factories = new URL('../test/store-factory.ts', import.meta.url);
const key = (sessionId: string, kind: 'history' | 'record') => `${keyPrefix}{${sessionId}}:${kind}`;

beforeAll(async () => {
  admin = createClient({ url: REDIS_URL });
  await admin.connect();
});
afterAll(async () => {
  const leftovers = await admin.keys(`${keyPrefix}*`);
  if (leftovers.length > 0) await admin.del(leftovers);
  admin.destroy();
});

describe('redisStore meets the SessionStore contract', () => {
  const contract = sessionStoreContract({
    async createStore() {
      const client: Client = createClient({ url: REDIS_URL });
      await client.connect();
      const store = redisStore({ client, keyPrefix });
      clients.set(store, client);
      return store;
    },
    closeStore(store) {
      clients.get(store)?.destroy();
      clients.delete(store);
    },
    async corrupt(sessionId, kind) {
      if (kind === 'record-not-json') {
        await admin.hSet(key(sessionId, 'record'), 'record', '{"state": {');
        return key(sessionId, 'record');
      }
      const value =
        kind === 'history-not-json'
          ? '{"id": "m2", "ro'
          : JSON.stringify({ id: 'm2', role: 'user', parts: [{ type: 'text', text: 42 }] });
      await admin.lSet(key(sessionId, 'history'), 1, value);
      return `${key(sessionId, 'history')}: entry 1`;
    },
    crashDuringAppend: (sessionId, batches) => crashDuringAppend(factories, keyPrefix)(sessionId, batches),
  });
  for (const test of contract) it(test.name, test.run, 60_000);
});

describe('redisStore', () => {
  it('refuses a client that is not one and a TTL that is not whole seconds', () => {
    expect(() => redisStore({ client: {} as never })).toThrow(/options\.client must be a connected node-redis client/);
    expect(() => redisStore({ client: admin, ttlSeconds: -1 })).toThrow(StoreError);
    expect(() => redisStore({ client: admin, ttlSeconds: 1.5 })).toThrow(/ttlSeconds must be a non-negative integer/);
  });

  it('sets the TTL on both keys at every write, so abandoned sessions expire', async () => {
    const store = redisStore({ client: admin, keyPrefix, ttlSeconds: 120 });
    await store.appendHistory('ttl', [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
    await store.saveRecord('ttl', {});
    for (const kind of ['history', 'record'] as const) {
      const seconds = await admin.ttl(key('ttl', kind));
      expect(seconds).toBeGreaterThan(100);
      expect(seconds).toBeLessThanOrEqual(120);
    }
  });

  it('appends more messages at once than Lua can unpack', async () => {
    const store = redisStore({ client: admin, keyPrefix });
    const messages = Array.from({ length: 9000 }, (_, index) => ({
      id: `m${index}`,
      role: 'user' as const,
      parts: [{ type: 'text' as const, text: String(index) }],
    }));
    expect(await store.appendHistory('many', messages)).toBe(9000);
    expect((await store.loadHistory('many', { from: 8998 })).map((message) => message.id)).toEqual(['m8998', 'm8999']);
  });

  it('reports a server it cannot reach as a StoreError naming the key, with the cause', async () => {
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    client.destroy();
    const store = redisStore({ client, keyPrefix });
    const error = await store.loadRecord('down').catch((reason: unknown) => reason);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).message).toContain(key('down', 'record'));
    expect((error as StoreError).cause).toBeDefined();
  });
});
