import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { invalidSettingOf } from '../testing/invalid-setting-of.js';
import { StoreError } from './errors/store-error.js';
import { sqliteStore } from './sqlite-store.js';

const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `text of ${id}` }] });
/** `sqliteStore` called the way JavaScript (or a cast) may call it. */
const make = (path: unknown, options?: unknown) => () => sqliteStore(path as string, options as never).close();
const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-database-path-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sqliteStore(path) checks the file when the store is made', () => {
  it("refuses what is not a path string, '' and whitespace, and a URL, naming path", () => {
    for (const value of ['', '  ', 42, undefined, null, {}, pathToFileURL(join(dir, 'x.db'))]) {
      expect(invalidSettingOf(make(value))).toBe('path');
    }
    expect(make('')).toThrow(/non-empty path string, e\.g\. sqliteStore\('\.compaction\/sessions\.db'\)/);
  });

  it('refuses a folder, saying to pass a file in it', () => {
    expect(invalidSettingOf(make(dir))).toBe('path');
    expect(make(dir)).toThrow(/is a folder; sqliteStore takes the database file, e\.g\. sqliteStore\(join\(folder/);
  });

  it('refuses a device or a FIFO (SQLite could block on one), and a path with a NUL character', () => {
    expect(invalidSettingOf(make('/dev/null'))).toBe('path');
    expect(make('/dev/null')).toThrow(/not a regular file/);
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(invalidSettingOf(make(fifo))).toBe('path');
    expect(invalidSettingOf(make(`${dir}/a\0b.db`))).toBe('path');
  });

  it('refuses a path through a file', async () => {
    await writeFile(join(dir, 'a-file'), 'x');
    expect(invalidSettingOf(make(join(dir, 'a-file', 'x.db')))).toBe('path');
  });

  it('refuses an existing file that is not an SQLite database, and leaves it as it was', async () => {
    const file = join(dir, 'notes.txt');
    await writeFile(file, 'my notes, not a database\n');
    expect(invalidSettingOf(make(file))).toBe('path');
    expect(make(file)).toThrow(/exists and is not an SQLite database.*pass a new file name/);
    expect(() => createCompactionSession({ sessionId: 'a', store: sqliteStore(file) })).toThrow(InvalidSettingsError);
    expect(await readFile(file, 'utf8')).toBe('my notes, not a database\n');
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('property: any non-empty content that does not start with the SQLite header is refused', async () => {
    let index = 0;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), async (bytes) => {
        fc.pre(!Buffer.from(bytes.subarray(0, 16)).equals(HEADER));
        const file = join(dir, `bytes-${index++}`);
        await writeFile(file, bytes);
        expect(invalidSettingOf(make(file))).toBe('path');
      }),
    );
    // A prefix of the header alone (a file shorter than 16 bytes) is not a database either.
    await writeFile(join(dir, 'short'), HEADER.subarray(0, 10));
    expect(invalidSettingOf(make(join(dir, 'short')))).toBe('path');
  });

  it('keeps a missing file valid, in a missing folder too: both created at first use (valid neighbour)', async () => {
    const file = join(dir, 'nested', 'deeper', 'sessions.db');
    const store = sqliteStore(file);
    expect(existsSync(join(dir, 'nested'))).toBe(false);
    await store.appendHistory('s', [message('m1')]);
    store.close();
    const reopened = sqliteStore(file);
    expect((await reopened.loadHistory('s')).map((m) => m.id)).toEqual(['m1']);
    reopened.close();
  });

  it('accepts an empty file (a new database), an SQLite database of another app, and :memory: (valid neighbours)', async () => {
    const empty = join(dir, 'empty.db');
    await writeFile(empty, '');
    const other = join(dir, 'other.db');
    const db = new DatabaseSync(other);
    db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept')");
    db.close();
    for (const file of [empty, other, ':memory:']) {
      const store = sqliteStore(file);
      await store.appendHistory('s', [message('m1')]);
      expect((await store.loadHistory('s')).map((m) => m.id)).toEqual(['m1']);
      store.close();
    }
    const check = new DatabaseSync(other, { readOnly: true });
    expect(check.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'kept' }]);
    check.close();
  });

  it('accepts a database this store wrote, reopened', async () => {
    const file = join(dir, 'sessions.db');
    const store = sqliteStore(file);
    await store.appendHistory('s', [message('m1')]);
    store.close();
    expect(make(file)).not.toThrow();
  });

  it('leaves a file with a journal beside it to SQLite (it may recover it at open): a StoreError at first use', async () => {
    const file = join(dir, 'crashed.db');
    await writeFile(file, Buffer.alloc(4096));
    await writeFile(`${file}-journal`, Buffer.alloc(512));
    const store = sqliteStore(file);
    const error = await store.loadHistory('s').catch((reason: unknown) => reason);
    expect(StoreError.isInstance(error)).toBe(true);
    store.close();
  });
});

describe('sqliteStore options are checked when the store is made', () => {
  it('refuses an options value that is not an object and an unknown key', async () => {
    const file = join(dir, 'x.db');
    expect(invalidSettingOf(make(file, 'normal'))).toBe('options');
    expect(invalidSettingOf(make(file, { busyTimeout: 5 }))).toBe('busyTimeout');
    expect(make(file, { busyTimeout: 5 })).toThrow(/did you mean "busyTimeoutMs"/);
    expect(invalidSettingOf(make(file, { journalMode: 'wal' }))).toBe('journalMode');
    expect(existsSync(file)).toBe(false);
  });

  it('accepts no options, {} and keys left undefined (valid neighbours)', () => {
    const file = join(dir, 'x.db');
    for (const options of [undefined, {}, { busyTimeoutMs: undefined }, { synchronous: 'normal' }]) {
      expect(make(file, options)).not.toThrow();
    }
  });
});
