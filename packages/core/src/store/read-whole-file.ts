import { open } from 'node:fs/promises';

/** What tells one version of a file from another: inode, size and modification time (ns), from one `stat`. */
export type FileVersion = { ino: bigint; size: bigint; mtime: bigint };

/**
 * A file's bytes and its version, in three round trips to the thread pool: `open`,
 * one `fstat` (the size to read, and the version, so the caller needs no second
 * `stat`), and one read call of that size (`readFile` reads in 512 KiB chunks,
 * each a round trip: 20 for a 10 MB history). The file is closed while the caller
 * goes on with the bytes: `closed` settles when it is (it never rejects), and a
 * caller holding the session's lock awaits it before letting the lock go, so no
 * handle outlives the lock (on Windows an open handle keeps a removed file's name
 * taken). The caller holds the lock, so the file does not change underneath.
 *
 * @throws the `open` error (`ENOENT` for a missing file) or the read's.
 */
export async function readWholeFile(
  file: string,
): Promise<{ data: Buffer; version: FileVersion; closed: Promise<void> }> {
  const handle = await open(file, 'r');
  let read: { data: Buffer; version: FileVersion };
  try {
    const stats = await handle.stat({ bigint: true });
    const size = Number(stats.size);
    const data = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      // One read call takes at most 2 GiB: larger files are read in 1 GiB steps.
      const { bytesRead } = await handle.read(data, filled, Math.min(size - filled, 2 ** 30), filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const version = { ino: stats.ino, size: stats.size, mtime: stats.mtimeNs };
    read = { data: filled === size ? data : data.subarray(0, filled), version };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  // A close that fails has nothing left to lose (the bytes are read).
  return { ...read, closed: handle.close().catch(() => undefined) };
}
