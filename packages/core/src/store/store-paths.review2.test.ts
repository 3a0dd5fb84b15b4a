import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { fileStore } from './file-store.js';
import { sqliteStore } from './sqlite-store.js';

/**
 * Review (session 9, R2): the store factories now check their path when made. Paths that worked
 * before and must keep working — checked here over real files (the cases check-folder-path.test.ts
 * and check-database-path.test.ts do not already hold).
 */
const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `text of ${id}` }] });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-r2-paths-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sqliteStore(path) keeps taking what worked before (sound)', () => {
  it('a WAL database another connection holds open with uncheckpointed writes (-wal and -shm beside it)', async () => {
    const file = join(dir, 'app.db');
    const other = new DatabaseSync(file);
    other.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE notes (body TEXT)');
    other.exec("INSERT INTO notes VALUES ('kept')");
    expect((await readdir(dir)).sort()).toEqual(['app.db', 'app.db-shm', 'app.db-wal']);
    const store = sqliteStore(file);
    try {
      await store.appendHistory('s', [message('a'), message('b')]);
      expect((await store.loadHistory('s')).map((m) => m.id)).toEqual(['a', 'b']);
      expect(other.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'kept' }]);
    } finally {
      store.close();
      other.close();
    }
  });

  it('paths with unicode and spaces, a symlinked folder, a symlink to the database, a relative path', async () => {
    const real = join(dir, 'réel dossier ✓');
    await mkdir(real);
    await symlink(real, join(dir, 'link'));
    const seeded = sqliteStore(join(real, 'données.db'));
    await seeded.appendHistory('s', [message('a')]);
    seeded.close();
    await symlink(join(real, 'données.db'), join(dir, 'db-link.db'));
    for (const path of [
      join(dir, 'link', 'données.db'),
      join(dir, 'db-link.db'),
      relative(process.cwd(), join(real, 'données.db')),
    ]) {
      const store = sqliteStore(path);
      try {
        expect((await store.loadHistory('s')).map((m) => m.id)).toEqual(['a']);
      } finally {
        store.close();
      }
    }
  });
});

describe('fileStore(dir) keeps taking what worked before (sound)', () => {
  it('a folder named with unicode, reached through a symlink and relatively, that another store filled', async () => {
    const real = join(dir, 'sessões ✓');
    await fileStore(real).appendHistory('s', [message('a')]);
    await symlink(real, join(dir, 'link'));
    for (const path of [join(dir, 'link'), relative(process.cwd(), real), `${real}/`]) {
      expect((await fileStore(path).loadHistory('s')).map((m) => m.id)).toEqual(['a']);
    }
  });

  it('a folder holding other files too (the store reads only its own)', async () => {
    await writeFile(join(dir, 'README.txt'), 'not a session');
    const store = fileStore(dir);
    await store.appendHistory('s', [message('a')]);
    expect((await fileStore(dir).loadHistory('s')).map((m) => m.id)).toEqual(['a']);
  });
});
