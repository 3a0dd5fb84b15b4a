import { type FileHandle, open, readFile } from 'node:fs/promises';
import type { Message } from '../messages/types.js';
import { decodeMessage } from './codec/decode-message.js';

const NEWLINE = 0x0a;
const SCAN_CHUNK = 64 * 1024;

/** Something a file store recovered from on its own, worth a log line. */
export type FileStoreWarning = {
  /** The file concerned. */
  file: string;
  /** What happened and what the store did about it. */
  message: string;
};

/**
 * Reads a JSONL history file. A missing file is an empty history. The last
 * line counts only once its newline is written: an unterminated last line is
 * what a crash during an append leaves, so it is skipped with a warning. Any
 * other bad line (invalid JSON, or JSON that is no valid message) is
 * corruption and throws `InvalidStateError` naming the file and line.
 */
export async function readHistoryFile(file: string, warn: (warning: FileStoreWarning) => void): Promise<Message[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  if (tail !== '') {
    warn({
      file,
      message:
        `ignored an incomplete last line (line ${lines.length + 1}, ${Buffer.byteLength(tail)} bytes without a newline): ` +
        'an append was interrupted; the next append drops it',
    });
  }
  const messages: Message[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    messages.push(decodeMessage(line, file, `line ${index + 1}`));
  }
  return messages;
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
 * `encodeMessages`) to a JSONL history file in one write, and syncs it to
 * disk. If the file ends in an unterminated line (a crash during an earlier
 * append), those bytes are cut off first, so the torn line never merges with
 * new data; complete lines are never touched.
 */
export async function appendHistoryFile(
  file: string,
  lines: readonly string[],
  warn: (warning: FileStoreWarning) => void,
): Promise<void> {
  const data = lines.map((line) => `${line}\n`).join('');
  const handle = await open(file, 'a+');
  try {
    const { size } = await handle.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== NEWLINE) {
        const keep = await lineStartBefore(handle, size);
        await handle.truncate(keep);
        warn({ file, message: `dropped an incomplete last line (${size - keep} bytes) left by an interrupted append` });
      }
    }
    await handle.appendFile(data, 'utf8');
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
