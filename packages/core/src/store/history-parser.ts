import type { Message } from '../messages/types.js';
import { decodeMessage } from './codec/decode-message.js';
import type { FileStoreWarning } from './history-file.js';
import { COMMIT_LINE, HISTORY_FORMAT_LINE } from './history-format.js';

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const QUOTE = 0x22;
const DOLLAR = 0x24;

/** A reader of a JSONL history file's bytes as they arrive (see {@link createHistoryParser}). */
export type HistoryParser = {
  /**
   * Reads the complete lines of `bytes[0, filled)` it has not read yet (a line
   * is complete once its newline is there). `filled` never goes down.
   */
  advance(filled: number): void;
  /**
   * Ends the file at `size` bytes (all of them passed to {@link advance}):
   * reports what was skipped to `warn`, then throws the first bad line that
   * belongs to the history, or returns its messages from `from` on and its length.
   *
   * @throws InvalidStateError naming the file and line.
   */
  finish(size: number): { messages: Message[]; length: number };
};

/**
 * Reads a JSONL history file (see `fileStore`) while its bytes arrive, so the
 * file can be decoded while the rest of it is still being read, with the same
 * result as reading the whole file first (see `parseHistoryFile`, which is this
 * parser fed at once). Lines are found with a byte search and each is decoded
 * from UTF-8 on its own (a newline byte never occurs inside a UTF-8 sequence);
 * only a line that opens with `{"$` is looked at as a format or commit line.
 *
 * Which lines belong to the history is known only at the end (the last commit
 * line), so a bad line is not thrown when met: it is kept, decoding stops (every
 * later line is counted, not decoded), and {@link HistoryParser.finish} throws it
 * only when it comes before the end of the history; after the last commit it is
 * part of an append a crash cut short, skipped with a warning like its neighbours.
 * The messages decoded past the last commit are dropped the same way.
 *
 * @param bytes - The buffer the file is read into, filled from its start.
 * @param file - Its path, named in warnings and errors.
 * @param warn - Told what was skipped.
 * @param from - Index of the first message to decode: the lines of the messages
 *   before it are only counted (not parsed, so not checked either). @default 0
 */
export function createHistoryParser(
  bytes: Buffer,
  file: string,
  warn: (warning: FileStoreWarning) => void,
  from = 0,
): HistoryParser {
  /** Offset where the next line starts (just past the last newline read). */
  let lineStart = 0;
  /** Complete lines read. */
  let count = 0;
  /** Whether line 0 is {@link HISTORY_FORMAT_LINE}. */
  let formatted = false;
  /** Messages counted so far (every message line, decoded or not). */
  let length = 0;
  const messages: Message[] = [];
  /** The line just past the last commit line (0: none yet), and the history up to it. */
  let committed = 0;
  let committedLength = 0;
  let committedMessages = 0;
  /** The first line that failed to decode, with its error: decoding stops there. */
  let failed: { index: number; error: unknown } | undefined;

  /** Whether the line at `start` opens with `{"$`, as format and commit lines do (and no message written by `encodeValue` but one whose first key starts with `$`). */
  const opensWithDollarKey = (start: number): boolean =>
    bytes[start] === OPEN_BRACE && bytes[start + 1] === QUOTE && bytes[start + 2] === DOLLAR;

  function readLine(start: number, end: number): void {
    const index = count;
    count += 1;
    const first = bytes[start];
    if (first === OPEN_BRACE) {
      // Not blank; a marker line only when it opens with `{"$`.
      if (opensWithDollarKey(start)) {
        const line = bytes.toString('utf8', start, end);
        if (line === HISTORY_FORMAT_LINE) {
          if (index === 0) formatted = true;
          return;
        }
        if (COMMIT_LINE.test(line)) {
          if (index > 0) {
            committed = index + 1;
            committedLength = length;
            committedMessages = messages.length;
          }
          return;
        }
      }
    } else if (bytes.toString('utf8', start, end).trim() === '') {
      return;
    }
    length += 1;
    // A message before `from` is counted, not decoded: the caller holds it already.
    if (length <= from || failed) return;
    try {
      messages.push(decodeMessage(bytes.toString('utf8', start, end), file, `line ${index + 1}`));
    } catch (error) {
      failed = { index, error };
    }
  }

  return {
    advance(filled) {
      const view = filled === bytes.length ? bytes : bytes.subarray(0, filled);
      for (let at = view.indexOf(NEWLINE, lineStart); at !== -1; at = view.indexOf(NEWLINE, at + 1)) {
        readLine(lineStart, at);
        lineStart = at + 1;
      }
    },
    finish(size) {
      if (lineStart < size) {
        warn({
          file,
          message:
            `ignored an incomplete last line (line ${count + 1}, ${size - lineStart} bytes without a newline): ` +
            'an append was interrupted; the next append drops it',
        });
      }
      let end = count;
      if (formatted) {
        if (committed < count) {
          warn({
            file,
            message: `ignored ${count - Math.max(committed, 1)} line(s) after the last commit: an append was interrupted; the next append drops them`,
          });
        }
        end = Math.max(committed, 1);
        // Without a commit line only the format line belongs to the history.
        length = committed > 0 ? committedLength : 0;
        messages.length = committed > 0 ? committedMessages : 0;
      }
      if (failed && failed.index < end) throw failed.error;
      return { messages, length };
    },
  };
}
