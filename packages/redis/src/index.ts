export type { RedisCommander } from './redis-commander.js';
export { type RedisStoreOptions, redisStore } from './redis-store.js';
