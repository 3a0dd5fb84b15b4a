// Opened by child processes (the crash and multi-process tests): `createStore(tablePrefix)`.
import pg from 'pg';
import { postgresStore } from '../src/postgres-store.js';
import { POSTGRES_URL } from './postgres-url.js';

/** A store on its own small pool, as a separate server process would have. */
export async function createStore(tablePrefix: string) {
  return postgresStore({ pool: new pg.Pool({ connectionString: POSTGRES_URL, max: 2 }), tablePrefix });
}
