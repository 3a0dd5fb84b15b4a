import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkPathString } from './check-path-string.js';
import { statPath } from './stat-path.js';

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Whether the file's first bytes are SQLite's header, or cannot be read now
 * (left to the first use). An empty file is a new database: not asked here.
 */
function readsAsSqlite(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Checks `sqliteStore(path)`'s database file when the store is made and returns
 * it resolved (`:memory:` as it is): a non-empty path string
 * ({@link checkPathString}) that is missing (created at first use, its folder
 * too), an empty file (a new database), or a file that starts with SQLite's
 * 16-byte header. A folder, a device, FIFO or socket, a path through a file, or
 * an existing file that is not an SQLite database throws {@link InvalidSettingsError} (setting `path`) at
 * once, instead of a `StoreError` ("file is not a database") at the first load.
 * A file whose header does not read as SQLite but has a `-wal` or `-journal`
 * file beside it is left to SQLite, which may recover it at open.
 *
 * @param path - What `sqliteStore` received.
 */
export function checkDatabasePath(path: unknown): string {
  if (path === ':memory:') return path;
  checkPathString(path, 'path', "sqliteStore('.compaction/sessions.db')");
  const file = resolve(path);
  const status = statPath(file);
  const fail = (problem: string): never => {
    throw new InvalidSettingsError({ setting: 'path', problem });
  };
  if (status === 'parent-not-folder') {
    fail(`${file} runs through a file, not a folder; pass the path of a database file in a folder`);
  }
  if (typeof status !== 'object') return file;
  if (status.isDirectory()) {
    fail(
      `${file} is a folder; sqliteStore takes the database file, e.g. sqliteStore(join(folder, 'sessions.db')) (created when missing), or use fileStore(folder) for files in a folder`,
    );
  }
  if (!status.isFile()) {
    fail(
      `${file} exists and is not a regular file (a device, FIFO or socket); pass the path of a database file (created when missing)`,
    );
  }
  const hasJournal = () => existsSync(`${file}-wal`) || existsSync(`${file}-journal`);
  if (status.size > 0 && !readsAsSqlite(file) && !hasJournal()) {
    fail(
      `${file} exists and is not an SQLite database (it does not start with "SQLite format 3"); pass a new file name (created at first use) or an SQLite database file`,
    );
  }
  return file;
}
