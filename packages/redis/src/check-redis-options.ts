import { checkOptionKeys, describeValue, InvalidSettingsError } from '@compaction/core';

/** Every option of `redisStore`. */
const REDIS_STORE_OPTION_KEYS = ['client', 'keyPrefix', 'ttlSeconds'];

/** Names users bring from node-redis and other stores, with ours. */
const HINTS = {
  url: { from: 'createClient', use: 'client: await createClient({ url }).connect()' },
  redis: { use: 'client (a connected node-redis client)' },
  prefix: { use: 'keyPrefix' },
  ttl: { use: 'ttlSeconds' },
  expire: { use: 'ttlSeconds' },
};

/**
 * Checks what `redisStore` received before the client is used, with an
 * {@link InvalidSettingsError} naming the option and what to pass: an options
 * object (a Redis URL is told to go in `createClient`, and is not echoed: it may
 * hold a password) and known keys. The existing checks of `client`,
 * `keyPrefix` and `ttlSeconds` (a `StoreError`) run after it. A client not
 * connected yet is accepted: it may be connected before the first use.
 */
export function checkRedisOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const got = typeof options === 'string' ? 'a string (a Redis URL?)' : describeValue(options);
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `redisStore takes an options object ({ client, keyPrefix, ttlSeconds }), got ${got}; pass redisStore({ client: await createClient({ url }).connect() })`,
    });
  }
  checkOptionKeys(options, REDIS_STORE_OPTION_KEYS, 'redisStore option', HINTS);
}
