/** One row set, as node-postgres returns it. */
export type PostgresResult = { rows: Record<string, unknown>[]; rowCount: number | null };

/** A connection checked out of a pool (a `pg` `PoolClient`). */
export type PostgresClient = {
  query(text: string, values?: unknown[]): Promise<PostgresResult>;
  release(error?: Error | boolean): void;
};

/**
 * What the store needs of a pool: a `pg` `Pool` (or anything shaped like it,
 * such as `@neondatabase/serverless`'s `Pool`). The store never ends it.
 */
export type PostgresPool = {
  query(text: string, values?: unknown[]): Promise<PostgresResult>;
  connect(): Promise<PostgresClient>;
};
