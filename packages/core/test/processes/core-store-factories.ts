// Store factories the child processes of the core tests open: `createStore(argument)`.
import { fileStore, type SessionStore, sqliteStore } from '@compaction/core';

/** `file:<dir>` or `sqlite:<path>`. */
export async function createStore(argument: string): Promise<SessionStore> {
  const [kind, ...rest] = argument.split(':');
  const location = rest.join(':');
  if (kind === 'file') return fileStore(location);
  if (kind === 'sqlite') return sqliteStore(location);
  throw new Error(`unknown store kind "${kind}" in "${argument}"`);
}
