import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { withFileLock } from './file-lock.js';

// The lock file's own handle, through real files: while `faults.failOwner` is set, writing the
// owner into a new lock file fails (a full disk); while `faults.slowClose` is set, a lock file's
// handle closes 30 ms late and is counted until it has closed, and every unlink of a lock file
// notes how many were still closing then.
const faults = vi.hoisted(() => ({ failOwner: false, slowClose: false, closing: 0, unlinkedWhileOpen: 0, unlinks: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const isLock = (path: unknown) => String(path).endsWith('.lock');
  const open: typeof fs.open = async (...args) => {
    const handle = await fs.open(...args);
    if (!isLock(args[0])) return handle;
    if (faults.failOwner) {
      handle.writeFile = async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      };
    }
    if (faults.slowClose) {
      const close = handle.close.bind(handle);
      handle.close = async () => {
        faults.closing += 1;
        try {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return await close();
        } finally {
          faults.closing -= 1;
        }
      };
    }
    return handle;
  };
  const unlink: typeof fs.unlink = async (path) => {
    if (isLock(path)) {
      faults.unlinks += 1;
      if (faults.closing > 0) faults.unlinkedWhileOpen += 1;
    }
    return fs.unlink(path);
  };
  return { ...fs, default: { ...fs, open, unlink }, open, unlink };
});

describe('withFileLock and its lock file handle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-file-lock-handle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    faults.failOwner = false;
    faults.slowClose = false;
  });
  const options = { timeoutMs: 1_000, onTimeout: (holder: string) => new Error(`held by ${holder}`) };

  it('removes a lock whose owner could not be written, throws that error, and runs no task', async () => {
    const file = join(dir, 'owner.lock');
    faults.failOwner = true;
    let ran = false;
    const task = async () => {
      ran = true;
    };
    await expect(withFileLock(file, task, options)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(ran).toBe(false);
    // Left behind, the ownerless lock would hold every other caller for its grace period.
    expect(existsSync(file)).toBe(false);
    faults.failOwner = false;
    const started = Date.now();
    expect(await withFileLock(file, async () => 'next', { ...options, timeoutMs: 0 })).toBe('next');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('lets the lock go only once its own handle is closed', async () => {
    const file = join(dir, 'close.lock');
    faults.slowClose = true;
    const before = faults.unlinks;
    for (let round = 0; round < 3; round += 1) {
      expect(await withFileLock(file, async () => round, options)).toBe(round);
      expect(existsSync(file)).toBe(false);
    }
    expect(faults.unlinks - before).toBe(3);
    expect(faults.unlinkedWhileOpen).toBe(0);
  });
});
