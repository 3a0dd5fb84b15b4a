import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { invalidSettingOf } from '../testing/invalid-setting-of.js';
import { fileStore } from './file-store.js';

const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: `text of ${id}` }] });
/** `fileStore` called the way JavaScript (or a cast) may call it. */
const make = (dir: unknown, options?: unknown) => () => fileStore(dir as string, options as never);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-folder-path-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fileStore(dir) checks the folder when the store is made', () => {
  it("refuses what is not a path string, '' and whitespace, naming dir and what to pass", () => {
    const cwdBefore = readdirSync(process.cwd()).sort();
    for (const value of ['', '   ', '\t\n', 42, undefined, null, {}, ['.sessions'], true]) {
      expect(invalidSettingOf(make(value))).toBe('dir');
    }
    expect(make('')).toThrow(/non-empty path string, e\.g\. fileStore\('\.sessions'\).*working directory: pass '\.'/);
    expect(make(42)).toThrow(/got 42/);
    // Nothing was written into the working directory.
    expect(readdirSync(process.cwd()).sort()).toEqual(cwdBefore);
  });

  it('refuses a path with a NUL character, and a Buffer, saying what it got', () => {
    expect(invalidSettingOf(make(`${dir}/a\0b`))).toBe('dir');
    expect(make(`${dir}/a\0b`)).toThrow(/without NUL characters/);
    expect(invalidSettingOf(make(Buffer.from(dir)))).toBe('dir');
    expect(make(Buffer.from('/tmp/x'))).toThrow(/got a Buffer of 6 bytes/);
  });

  it('refuses a device as the folder (/dev/null)', () => {
    expect(invalidSettingOf(make('/dev/null'))).toBe('dir');
  });

  it('refuses a file URL, telling to convert it', () => {
    expect(invalidSettingOf(make(pathToFileURL(dir)))).toBe('dir');
    expect(make(pathToFileURL(dir))).toThrow(/fileURLToPath/);
  });

  it('refuses an existing path that is a file, and a path through a file, and changes nothing', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'mine');
    for (const path of [file, join(file, 'sessions'), join(file, 'a', 'b')]) {
      expect(invalidSettingOf(make(path))).toBe('dir');
    }
    expect(make(file)).toThrow(/exists and is not a folder.*pass a folder path/);
    expect(make(join(file, 'sessions'))).toThrow(/runs through a file/);
    // Through createCompactionSession too: refused when the store is made, before any session.
    expect(() => createCompactionSession({ sessionId: 'a', store: fileStore(file) })).toThrow(InvalidSettingsError);
    expect(await readdir(dir)).toEqual(['a-file']);
  });

  it('refuses a symlink to a file, accepts a symlink to a folder (the valid neighbour)', async () => {
    await writeFile(join(dir, 'target-file'), '');
    await mkdir(join(dir, 'target-folder'));
    await symlink(join(dir, 'target-file'), join(dir, 'to-file'));
    await symlink(join(dir, 'target-folder'), join(dir, 'to-folder'));
    expect(invalidSettingOf(make(join(dir, 'to-file')))).toBe('dir');
    const store = fileStore(join(dir, 'to-folder'));
    await store.appendHistory('s', [message('m1')]);
    expect(await readdir(join(dir, 'target-folder'))).toContain('s.history.jsonl');
  });

  it('keeps a missing folder valid: nothing is created until the first write, then parents too', async () => {
    const folder = join(dir, 'not', 'yet', 'there');
    const store = fileStore(folder);
    expect(existsSync(join(dir, 'not'))).toBe(false);
    expect(await store.loadHistory('s')).toEqual([]);
    expect(existsSync(join(dir, 'not'))).toBe(false);
    await store.appendHistory('s', [message('m1')]);
    expect((await fileStore(folder).loadHistory('s')).map((m) => m.id)).toEqual(['m1']);
  });

  it("accepts an existing folder, a relative path, '.' and a name with spaces (valid neighbours)", async () => {
    const spaced = join(dir, ' spaced name ');
    await mkdir(spaced);
    for (const path of [dir, relative(process.cwd(), dir), spaced, '.', `${dir}/`]) {
      expect(make(path)).not.toThrow();
    }
    const store = fileStore(spaced);
    await store.appendHistory('s', [message('m1')]);
    expect(await readdir(spaced)).toContain('s.history.jsonl');
  });

  it('property: a path is refused exactly when a file is at it or on the way (before anything missing)', async () => {
    // A real tree: each folder level holds a `folder` and a `file`.
    for (let depth = 0; depth < 4; depth += 1) {
      const level = join(dir, ...Array<string>(depth).fill('folder'));
      await mkdir(join(level, 'folder'), { recursive: true });
      await writeFile(join(level, 'file'), 'x');
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('folder', 'file', 'missing'), { minLength: 1, maxLength: 4 }),
        async (steps) => {
          const path = join(dir, ...steps);
          const refused = steps.find((step) => step !== 'folder') === 'file';
          if (refused) expect(invalidSettingOf(make(path))).toBe('dir');
          else expect(make(path)).not.toThrow();
        },
      ),
    );
  });
});

describe('fileStore options are checked when the store is made', () => {
  it('refuses an options value that is not an object, an unknown key and an onWarning that is not a function', () => {
    expect(invalidSettingOf(make(dir, 5000))).toBe('options');
    expect(make(dir, 5000)).toThrow(/fileStore takes an options object \(\{ onWarning, lockTimeoutMs \}\)/);
    expect(invalidSettingOf(make(dir, { lockTimeout: 50 }))).toBe('lockTimeout');
    expect(make(dir, { lockTimeout: 50 })).toThrow(/did you mean "lockTimeoutMs"/);
    expect(invalidSettingOf(make(dir, { onWarning: 'log' }))).toBe('onWarning');
  });

  it('accepts no options, {} and keys left undefined (valid neighbours)', () => {
    for (const options of [undefined, {}, { onWarning: undefined, lockTimeoutMs: undefined }, { lockTimeoutMs: 0 }]) {
      expect(make(dir, options)).not.toThrow();
    }
  });
});
