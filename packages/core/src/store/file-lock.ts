import { open, readFile, rm, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';

/** Options of {@link withFileLock}. */
export type FileLockOptions = {
  /** How long to wait for another holder before giving up. */
  timeoutMs: number;
  /** Called (once) when the lock is busy for the whole timeout: builds the error to throw. */
  onTimeout: (holder: string) => Error;
  /**
   * Creates the lock file's folder when it is missing (the lock cannot be created
   * then); the lock is tried again once it ran. Without it, a missing folder
   * throws the `ENOENT` error of the lock file.
   * @default undefined
   */
  createFolder?: () => Promise<unknown>;
};

/** A lock file younger than this with no owner written yet is still being created. */
const UNWRITTEN_GRACE_MS = 2_000;
/** A breaker file older than this was left by a process that died while breaking a stale lock. */
const BREAKER_STALE_MS = 10_000;

const host = hostname();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function ageMs(file: string): Promise<number | undefined> {
  try {
    return Date.now() - (await stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether the owner text names a process on this machine that is gone. */
async function isStale(file: string, owner: string): Promise<boolean> {
  const match = /^(\d+) (.*)\n$/s.exec(owner);
  if (!match) return ((await ageMs(file)) ?? 0) > UNWRITTEN_GRACE_MS;
  return match[2] === host && !isAlive(Number(match[1]));
}

/** Removes a stale lock, under a breaker file so two processes never both break it (and so a fresh lock). */
async function breakStale(file: string, owner: string): Promise<void> {
  const breaker = `${file}.break`;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(breaker, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (((await ageMs(breaker)) ?? 0) > BREAKER_STALE_MS) await rm(breaker, { force: true });
    return;
  }
  try {
    await handle.close();
    if ((await readOwner(file)) === owner) await rm(file, { force: true });
  } finally {
    await rm(breaker, { force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` holding an exclusive lock file (`open(…, 'wx')`, holding
 * `<pid> <host>`), shared with every process on the machine. A lock left by a
 * process on this machine that has exited is broken; one held by a live
 * process, or by another host, is waited for up to `timeoutMs`.
 *
 * @throws what `onTimeout` builds, when the lock stays busy.
 */
export async function withFileLock<T>(file: string, task: () => Promise<T>, options: FileLockOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const mine = `${process.pid} ${host}\n`;
  let delay = 1;
  let folderCreated = false;
  /** The lock file's close, left to finish while the task runs (awaited before the lock is removed). */
  let closing: Promise<void>;
  for (;;) {
    try {
      const handle = await open(file, 'wx').catch(async (error: NodeJS.ErrnoException) => {
        // Created only when missing, not before every write: `mkdir -p` is two round trips.
        if (error.code !== 'ENOENT' || !options.createFolder || folderCreated) throw error;
        folderCreated = true;
        await options.createFolder();
        return open(file, 'wx');
      });
      try {
        // The owner is written before the task starts, so no other process takes the lock for an abandoned one.
        await handle.writeFile(mine, 'utf8');
      } catch (error) {
        // Ours (created exclusively), and no owner in it: removed, so nobody waits for it.
        await handle.close().catch(() => undefined);
        await release(file).catch(() => undefined);
        throw error;
      }
      closing = handle.close().catch(() => undefined);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(file);
    if (owner === undefined) continue;
    if (await isStale(file, owner)) {
      await breakStale(file, owner);
      continue;
    }
    if (Date.now() >= deadline) throw options.onTimeout(owner.trim() || 'a process that has not written its id yet');
    await sleep(delay);
    delay = Math.min(delay * 2, 50);
  }
  try {
    return await task();
  } finally {
    await closing;
    await release(file);
  }
}

/**
 * Removes the lock file: one `unlink` (`rm` with `force` checks the path twice with
 * `lstat` first, three round trips to the thread pool where one does). A lock file
 * already gone (broken by another process as stale) is fine.
 */
async function release(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
