import { checkOptionKeys, describeValue, InvalidSettingsError } from '@compaction/core';

/** Every option of `postgresStore`. */
const POSTGRES_STORE_OPTION_KEYS = ['pool', 'tablePrefix', 'createTables'];

/** Names users bring from `pg` and other stores, with ours. */
const HINTS = {
  connectionString: { from: 'pg', use: 'pool: new pg.Pool({ connectionString })' },
  url: { use: 'pool: new pg.Pool({ connectionString: url })' },
  client: { use: 'pool (a pg Pool: the store checks a connection out of it for each transaction)' },
  prefix: { use: 'tablePrefix' },
};

/**
 * Checks what `postgresStore` received before the pool is used, with an
 * {@link InvalidSettingsError} naming the option and what to pass: an options
 * object (a connection string is told to go in a `pg.Pool`, and is not echoed:
 * it may hold a password), known keys, a `pg` `Pool` rather than a single
 * `pg.Client`, and `createTables` true or false. The existing checks of `pool`'s
 * shape and `tablePrefix` (a `StoreError`) run after it.
 */
export function checkPostgresOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const got = typeof options === 'string' ? 'a string (a connection string?)' : describeValue(options);
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `postgresStore takes an options object ({ pool, tablePrefix, createTables }), got ${got}; pass postgresStore({ pool: new pg.Pool({ connectionString }) })`,
    });
  }
  const given = options as Record<string, unknown>;
  checkOptionKeys(given, POSTGRES_STORE_OPTION_KEYS, 'postgresStore option', HINTS);
  const pool = given.pool as Record<string, unknown> | null | undefined;
  // A pg Client has query() and connect() too, but connect() opens its one connection and returns no client.
  if (typeof pool === 'object' && pool !== null && 'connectionParameters' in pool && !('totalCount' in pool)) {
    throw new InvalidSettingsError({
      setting: 'pool',
      problem:
        'is a pg Client (one connection); postgresStore needs a pg Pool, which it checks connections out of for its transactions: pass new pg.Pool({ connectionString })',
    });
  }
  if (given.createTables !== undefined && typeof given.createTables !== 'boolean') {
    throw new InvalidSettingsError({
      setting: 'createTables',
      problem: `must be true or false, got ${describeValue(given.createTables)}`,
    });
  }
}
