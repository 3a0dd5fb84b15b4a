import type { Message } from '../messages/types.js';
import type { FileStoreWarning } from './history-file.js';
import { createHistoryParser } from './history-parser.js';

/**
 * Decodes the bytes of a JSONL history file (see `fileStore`) into its
 * messages, working on the bytes rather than one string of the whole file:
 * lines are found with a byte search, each line is decoded from UTF-8 on its
 * own (a newline byte never occurs inside a UTF-8 sequence, so this reads the
 * same text), and only a line that opens with `{"$` is looked at as a possible
 * format or commit line. No string of the whole file is built, which halves the
 * memory a load needs and skips a copy of every byte. (The whole file fed at
 * once to {@link createHistoryParser}, which `readHistoryFile` feeds as the
 * file is read.)
 *
 * The last line counts only once its newline is written: an unterminated last
 * line is what a crash during an append leaves, so it is skipped with a
 * warning. In a file that starts with `HISTORY_FORMAT_LINE`, lines after
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
 *   that is no JSON, or JSON that is no message.
 */
export function parseHistoryFile(
  data: Uint8Array,
  file: string,
  warn: (warning: FileStoreWarning) => void,
  from = 0,
): { messages: Message[]; length: number } {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const parser = createHistoryParser(bytes, file, warn, from);
  parser.advance(bytes.length);
  return parser.finish(bytes.length);
}
