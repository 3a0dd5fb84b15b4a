import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * The temp file {@link writeFileAtomic} writes next to `file`:
 * `<file>.<pid>.<8 hex>.tmp`. Matches only names of that exact form.
 */
export function isTempFileOf(file: string, candidate: string): boolean {
  if (!candidate.startsWith(`${file}.`)) return false;
  return /^\d+\.[0-9a-f]{8}\.tmp$/.test(candidate.slice(file.length + 1));
}

/**
 * The last temp-file suffix this process drew. Its random start is drawn at the first
 * name, not when the module loads: a program built into a startup snapshot would
 * otherwise start every process it runs at the same value.
 */
let lastSuffix: number | undefined;

/** Temp names {@link writeFileAtomic} tries when the one it drew exists already. */
const TEMP_NAME_ATTEMPTS = 16;

/** 2^32 / golden ratio: multiplying by it spreads consecutive integers across the 32-bit range. */
const SPREAD = 0x9e37_79b9;

/**
 * Where this realm's suffixes start: `Math.random`, with the worker thread's id
 * mixed in (spread by {@link SPREAD}, so threads start 2^32/φ apart and their
 * counted-up ranges do not meet) and the clock's nanoseconds. Threads of one pid
 * whose `Math.random` follows one seed (`node --random-seed`, realms from one
 * startup snapshot) would otherwise draw the same names in lockstep.
 */
export function tempSuffixStart(thread: number = threadId): number {
  const random = Math.floor(Math.random() * 0x1_0000_0000);
  const clock = Number(process.hrtime.bigint() & 0xffff_ffffn);
  return (random + Math.imul(thread, SPREAD) + Math.imul(clock, 0x85eb_ca6b)) >>> 0;
}

/**
 * The 8 hex digits of the next temp file's name: a start ({@link tempSuffixStart})
 * counted up, so no two writes of one realm ever draw the same name. Not `crypto`:
 * loading `node:crypto` costs a new process 4–8 ms of CPU at its first save, and the
 * name needs no secrecy (the temp file is opened with `wx`, which fails rather
 * than follow or reuse anything already there; a name that exists is skipped).
 */
function tempSuffix(): string {
  lastSuffix = ((lastSuffix ?? tempSuffixStart()) + 1) % 0x1_0000_0000;
  return lastSuffix.toString(16).padStart(8, '0');
}

/**
 * A new temp file name for `file` (see {@link isTempFileOf}): never the same
 * twice in one process.
 */
export function tempFileOf(file: string): string {
  return `${file}.${process.pid}.${tempSuffix()}.tmp`;
}

/**
 * Replaces `file` with `text` atomically: writes a temp file in the same
 * folder, syncs it to disk, then renames it over `file`. A crash at any moment
 * leaves the old content or the new one, never a mix. The folder is synced
 * afterwards (where the platform allows) so the rename itself is durable.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const { temp, handle } = await openTempFile(file);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dirname(file));
}

/**
 * Creates a new temp file for `file` (`wx`: never one that exists). A name that exists
 * already (a save that crashed before its rename, or another process that drew the same
 * pid and suffix) is left alone and the next name tried.
 */
async function openTempFile(file: string): Promise<{ temp: string; handle: FileHandle }> {
  for (let attempt = 1; ; attempt += 1) {
    const temp = tempFileOf(file);
    try {
      return { temp, handle: await open(temp, 'wx') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= TEMP_NAME_ATTEMPTS) throw error;
    }
  }
}

async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot open or sync a folder; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}
