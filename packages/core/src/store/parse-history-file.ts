import type { Message } from '../messages/types.js';
import { decodeMessageAt } from './codec/decode-message.js';
import type { FileStoreWarning } from './history-file.js';
import { COMMIT_LINE, HISTORY_FORMAT_LINE, newerHistoryFormat, newerHistoryFormatError } from './history-format.js';

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const QUOTE = 0x22;
const DOLLAR = 0x24;

/**
 * Decodes the bytes of a JSONL history file (see `fileStore`) into its
 * messages, working on the bytes rather than one string of the whole file:
 * lines are found with a byte search, each line is decoded from UTF-8 on its
 * own (a newline byte never occurs inside a UTF-8 sequence, so this reads the
 * same text), and only a line that opens with `{"$` is looked at as a possible
 * format or commit line. No string of the whole file is built, which halves the
 * memory a load needs and skips a copy of every byte.
 *
 * The last line counts only once its newline is written: an unterminated last
 * line is what a crash during an append leaves, so it is skipped with a
 * warning. In a file that starts with {@link HISTORY_FORMAT_LINE}, lines after
 * the last commit line are an append a crash cut short: skipped with a warning.
 * Blank lines are skipped.
 *
 * @param data - The whole file.
 * @param file - Its path, named in warnings and errors.
 * @param warn - Told what was skipped.
 * @param from - Index of the first message to decode: the lines of the messages
 *   before it are only counted (not parsed, so not checked either), as a
 *   database reads only the rows asked for. @default 0
 * @returns The messages from `from` on, and the length of the whole history.
 * @throws InvalidStateError naming the file and line: a line from `from` on
 *   that is no JSON, or JSON that is no message; naming the file and saying to
 *   upgrade: a file whose first line is the format line of a newer release
 *   (`{"$history":n}`, n above `HISTORY_FORMAT`).
 */
export function parseHistoryFile(
  data: Uint8Array,
  file: string,
  warn: (warning: FileStoreWarning) => void,
  from = 0,
): { messages: Message[]; length: number } {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  /** `ends[i]`: the offset of the newline that ends line `i` (lines counted from 0). */
  const ends: number[] = [];
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) ends.push(at);
  const count = ends.length;
  const startOf = (index: number): number => (index === 0 ? 0 : (ends[index - 1] as number) + 1);
  const textOf = (index: number): string => bytes.toString('utf8', startOf(index), ends[index]);
  /** Whether line `index` opens with `{"$`, as format and commit lines do (and no message written by `encodeValue` but one whose first key starts with `$`). */
  const opensWithDollarKey = (index: number): boolean => {
    const start = startOf(index);
    return bytes[start] === OPEN_BRACE && bytes[start + 1] === QUOTE && bytes[start + 2] === DOLLAR;
  };

  // A file a newer release wrote is refused before anything is read from it (its lines may mean other things).
  const firstLine = count > 0 && opensWithDollarKey(0) ? textOf(0) : undefined;
  const newer = firstLine === undefined ? undefined : newerHistoryFormat(firstLine);
  if (newer !== undefined) throw newerHistoryFormatError(file, newer);

  const tailStart = startOf(count);
  if (tailStart < bytes.length) {
    warn({
      file,
      message:
        `ignored an incomplete last line (line ${count + 1}, ${bytes.length - tailStart} bytes without a newline): ` +
        'an append was interrupted; the next append drops it',
    });
  }

  let end = count;
  if (firstLine === HISTORY_FORMAT_LINE) {
    let committed = 0;
    for (let index = count - 1; index > 0; index -= 1) {
      if (opensWithDollarKey(index) && COMMIT_LINE.test(textOf(index))) {
        committed = index + 1;
        break;
      }
    }
    if (committed < count) {
      warn({
        file,
        message: `ignored ${count - Math.max(committed, 1)} line(s) after the last commit: an append was interrupted; the next append drops them`,
      });
    }
    end = Math.max(committed, 1);
  }

  const messages: Message[] = [];
  let length = 0;
  for (let index = 0; index < end; index += 1) {
    const first = bytes[startOf(index)];
    if (first === OPEN_BRACE) {
      // Not blank; a marker line only when it opens with `{"$`.
      if (opensWithDollarKey(index)) {
        const line = textOf(index);
        if (line === HISTORY_FORMAT_LINE || COMMIT_LINE.test(line)) continue;
      }
    } else if (textOf(index).trim() === '') {
      continue;
    }
    length += 1;
    // A message before `from` is counted, not decoded: the caller holds it already.
    if (length > from) messages.push(decodeMessageAt(textOf(index), file, 'line', index + 1));
  }
  return { messages, length };
}
