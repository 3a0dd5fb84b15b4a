/** The test server: REDIS_URL, or the loopback server scripts/ensure-redis.mjs starts. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
