export type { PostgresClient, PostgresPool, PostgresResult } from './postgres-pool.js';
export { type PostgresStore, type PostgresStoreOptions, postgresStore } from './postgres-store.js';
