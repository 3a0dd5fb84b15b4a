import { type FileHandle, open } from 'node:fs/promises';
import type { Message } from '../messages/types.js';
import {
  COMMIT_LINE,
  commitLine,
  HISTORY_FORMAT_LINE,
  newerHistoryFormat,
  newerHistoryFormatError,
} from './history-format.js';
import { parseHistoryFile } from './parse-history-file.js';
import { type FileVersion, readWholeFile } from './read-whole-file.js';

const NEWLINE = 0x0a;
const SCAN_CHUNK = 64 * 1024;

export { HISTORY_FORMAT_LINE } from './history-format.js';
export type { FileVersion } from './read-whole-file.js';

/** Something a file store recovered from on its own, worth a log line. */
export type FileStoreWarning = {
  /** The file concerned. */
  file: string;
  /** What happened and what the store did about it. */
  message: string;
};

/**
 * Reads a JSONL history file (see {@link parseHistoryFile}): the messages from
 * `from` on (those before are counted, not decoded), the history's length, and
 * the version of the file read (from the `stat` the read makes anyway, so the
 * caller needs no second one). A missing file is an empty history, with no
 * version. The last line counts only once its newline is written: an
 * unterminated last line is what a crash during an append leaves, so it is
 * skipped with a warning, as are the lines after the last commit line. Any
 * other bad line from `from` on (invalid JSON, or JSON that is no valid
 * message) is corruption and throws `InvalidStateError` naming the file and line.
 *
 * @param from - Index of the first message to decode. @default 0
 */
export async function readHistoryFile(
  file: string,
  warn: (warning: FileStoreWarning) => void,
  from = 0,
): Promise<{ messages: Message[]; length: number; version?: FileVersion }> {
  let read: Awaited<ReturnType<typeof readWholeFile>>;
  try {
    read = await readWholeFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { messages: [], length: 0 };
    throw error;
  }
  try {
    // Parsed while the file closes: the close is done by the time the parse is.
    return { ...parseHistoryFile(read.data, file, warn, from), version: read.version };
  } finally {
    await read.closed;
  }
}

/** The offset just past the last commit line (or the format line), scanning the whole file: after a crash only. */
async function committedEnd(handle: FileHandle): Promise<number> {
  const text = (await handle.readFile()).toString('utf8');
  const total = Buffer.byteLength(text);
  let offset = 0;
  let committed = 0;
  for (const line of text.split('\n')) {
    const next = offset + Buffer.byteLength(line) + 1;
    if (next > total) break; // an unterminated last line
    if (line === HISTORY_FORMAT_LINE || COMMIT_LINE.test(line)) committed = next;
    offset = next;
  }
  return committed;
}

/** The last complete line of the file (empty when there is none), read from its end. */
async function lastLine(handle: FileHandle, size: number): Promise<string> {
  if (size === 0) return '';
  const start = await lineStartBefore(handle, size - 1);
  const buffer = Buffer.alloc(size - start);
  await handle.read(buffer, 0, buffer.length, start);
  return buffer.toString('utf8').replace(/\n$/, '');
}

/** The longest first line looked at as a format line: `{"$history":n}` with n of up to 64 digits. */
const FORMAT_LINE_BYTES = 80;

/**
 * The file's first line when it is complete (ends with a newline) within its
 * first {@link FORMAT_LINE_BYTES} bytes, as format lines are; undefined otherwise.
 */
async function firstShortLine(handle: FileHandle): Promise<string | undefined> {
  const buffer = Buffer.alloc(FORMAT_LINE_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  const newline = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
  return newline === -1 ? undefined : buffer.toString('utf8', 0, newline);
}

async function readByte(handle: FileHandle, position: number): Promise<number | undefined> {
  const buffer = Buffer.alloc(1);
  const { bytesRead } = await handle.read(buffer, 0, 1, position);
  return bytesRead === 1 ? buffer[0] : undefined;
}

/** The offset just past the last newline before `end` (0 when there is none). */
async function lineStartBefore(handle: FileHandle, end: number): Promise<number> {
  const buffer = Buffer.alloc(SCAN_CHUNK);
  let position = end;
  while (position > 0) {
    const length = Math.min(SCAN_CHUNK, position);
    position -= length;
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    const newline = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (newline !== -1) return position + newline + 1;
  }
  return 0;
}

/**
 * Appends messages (already serialized, one JSON text each, see
 * `encodeMessages`) to a JSONL history file in one write ending with a commit
 * line, and syncs it to disk. What a crash left after the last commit (whole
 * lines of a cut-short append, or a torn line) is cut off first, so it never
 * joins the history; committed lines are never touched. A file written before
 * commit lines keeps its format (only a torn last line is cut off).
 *
 * @throws InvalidStateError, before anything is written, for a file whose first
 *   line is the format line of a newer release (see `newerHistoryFormat`).
 */
export async function appendHistoryFile(
  file: string,
  lines: readonly string[],
  warn: (warning: FileStoreWarning) => void,
): Promise<void> {
  const body = lines.map((line) => `${line}\n`).join('');
  const handle = await open(file, 'a+');
  try {
    const { size } = await handle.stat();
    if (size === 0) {
      await handle.appendFile(`${HISTORY_FORMAT_LINE}\n${body}${commitLine(lines.length)}\n`, 'utf8');
      await handle.datasync();
      return;
    }
    const first = await firstShortLine(handle);
    // A file a newer release wrote: appending lines of this format would make them garbage to it.
    const newer = first === undefined ? undefined : newerHistoryFormat(first);
    if (newer !== undefined) throw newerHistoryFormatError(file, newer);
    if (first === HISTORY_FORMAT_LINE) {
      // The usual case ends in a commit line; anything else is what a crash left: cut it off.
      const last = await lastLine(handle, size);
      const tailIsComplete = (await readByte(handle, size - 1)) === NEWLINE;
      if (!tailIsComplete || !COMMIT_LINE.test(last)) {
        const keep = await committedEnd(handle);
        await handle.truncate(keep);
        warn({ file, message: `dropped ${size - keep} bytes after the last commit, left by an interrupted append` });
      }
      await handle.appendFile(`${body}${commitLine(lines.length)}\n`, 'utf8');
      await handle.datasync();
      return;
    }
    // A file written before commit lines (or whose very first append was cut inside the format line).
    let data = body;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] !== NEWLINE) {
      const keep = await lineStartBefore(handle, size);
      await handle.truncate(keep);
      warn({ file, message: `dropped an incomplete last line (${size - keep} bytes) left by an interrupted append` });
      if (keep === 0) data = `${HISTORY_FORMAT_LINE}\n${body}${commitLine(lines.length)}\n`;
    }
    await handle.appendFile(data, 'utf8');
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
