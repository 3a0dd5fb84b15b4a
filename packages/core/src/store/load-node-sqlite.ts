import { StoreError, type StoreOperation } from './errors/store-error.js';

type NodeSqlite = typeof import('node:sqlite');

let loading: Promise<NodeSqlite> | undefined;

/**
 * Imports `node:sqlite` on first use, so importing `@compaction/core` never
 * needs it. It is built into Node 22.13+ and 23.4+; Node 22.12 has it only
 * behind `--experimental-sqlite`.
 *
 * @throws StoreError saying which Node version or flag is needed.
 */
export async function loadNodeSqlite(operation: StoreOperation, source: string): Promise<NodeSqlite> {
  loading ??= import('node:sqlite');
  try {
    return await loading;
  } catch (error) {
    loading = undefined;
    throw new StoreError({
      operation,
      source,
      problem:
        `node:sqlite is not available in Node ${process.versions.node} (${(error as Error).message}). ` +
        'sqliteStore needs Node 22.13 or later (on Node 22.12, run node with --experimental-sqlite), ' +
        'or use fileStore on this version',
      cause: error,
    });
  }
}
