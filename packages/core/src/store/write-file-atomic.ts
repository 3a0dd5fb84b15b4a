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

/**
 * Replaces `file` with `text` atomically: writes a temp file in the same
 * folder, syncs it to disk, then renames it over `file`. A crash at any moment
 * leaves the old content or the new one, never a mix. The folder is synced
 * afterwards (where the platform allows) so the rename itself is durable.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  // node:crypto is loaded on first use, not when core is imported (loading it costs 15–40 ms).
  const random = process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex');
  const temp = `${file}.${process.pid}.${random}.tmp`;
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
