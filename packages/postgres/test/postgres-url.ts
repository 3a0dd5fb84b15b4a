/** The test server: POSTGRES_URL, or the loopback server scripts/ensure-postgres.mjs starts. */
export const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
