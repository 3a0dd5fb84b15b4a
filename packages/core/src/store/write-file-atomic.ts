import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The temp file {@link writeFileAtomic} writes next to `file`:
 * `<file>.<pid>.<8 hex>.tmp`. Matches only names of that exact form.
 */
export function isTempFileOf(file: string, candidate: string): boolean {
  if (!candidate.startsWith(`${file}.`)) return false;
  return /^\d+\.[0-9a-f]{8}\.tmp$/.test(candidate.slice(file.length + 1));
}

/** Where this process's temp-file suffixes start: random, so two processes that share a pid over time seldom meet. */
let nextSuffix = Math.floor(Math.random() * 0x1_0000_0000);

/**
 * The 8 hex digits of the next temp file's name: a random start counted up, so
 * no two writes of one process ever draw the same name. Not `crypto`: loading
 * `node:crypto` costs a new process 4–8 ms of CPU at its first save, and the
 * name needs no secrecy (the temp file is opened with `wx`, which fails rather
 * than follow or reuse anything already there).
 */
function tempSuffix(): string {
  nextSuffix = (nextSuffix + 1) % 0x1_0000_0000;
  return nextSuffix.toString(16).padStart(8, '0');
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
  const temp = tempFileOf(file);
  try {
    const handle = await open(temp, 'wx');
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
