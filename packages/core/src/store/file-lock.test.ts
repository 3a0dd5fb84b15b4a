import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.js';

describe('withFileLock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-file-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const options = { timeoutMs: 1_000, onTimeout: (holder: string) => new Error(`held by ${holder}`) };

  it('holds a lock file naming this process while the task runs, and removes it after, also when the task throws', async () => {
    const file = join(dir, 'a.lock');
    const seen = await withFileLock(file, async () => readFileSync(file, 'utf8'), options);
    expect(seen).toBe(`${process.pid} ${hostname()}\n`);
    expect(existsSync(file)).toBe(false);
    await expect(
      withFileLock(
        file,
        async () => {
          throw new Error('task failed');
        },
        options,
      ),
    ).rejects.toThrow('task failed');
    expect(existsSync(file)).toBe(false);
  });

  it('runs tasks on one lock file one at a time', async () => {
    const file = join(dir, 'b.lock');
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    };
    await Promise.all(Array.from({ length: 5 }, () => withFileLock(file, task, options)));
    expect(most).toBe(1);
    expect(existsSync(file)).toBe(false);
  });

  it('creates a missing folder only through createFolder, and throws ENOENT without it', async () => {
    const file = join(dir, 'missing', 'deeper', 'c.lock');
    await expect(withFileLock(file, async () => 1, options)).rejects.toMatchObject({ code: 'ENOENT' });
    let created = 0;
    const createFolder = () => {
      created += 1;
      return mkdir(join(dir, 'missing', 'deeper'), { recursive: true });
    };
    expect(await withFileLock(file, async () => 2, { ...options, createFolder })).toBe(2);
    expect(await withFileLock(file, async () => 3, { ...options, createFolder })).toBe(3);
    expect(created).toBe(1);
    expect(existsSync(file)).toBe(false);
  });

  it('is fine when the lock file is already gone as the task ends (broken by another process as stale)', async () => {
    const file = join(dir, 'd.lock');
    const task = async () => {
      rmSync(file);
      return 'done';
    };
    expect(await withFileLock(file, task, options)).toBe('done');
  });
});
