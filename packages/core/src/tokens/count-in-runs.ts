/**
 * Runs longer than this of one kind of character (letters, whitespace or
 * symbols) are counted in slices of this length. Byte-pair encoders are
 * quadratic in the length of one pre-token (100K spaces take seconds with
 * tiktoken and gpt-tokenizer alike); slicing keeps counting linear and changes
 * the count by at most a token or two per slice, only for such runs.
 */
export const MAX_RUN_CHARS = 500;

const LETTER = /[\p{L}\p{M}]/u;
const SPACE = /\s/u;
const NUMBER = /\p{N}/u;

/** 1 letter, 2 whitespace, 3 symbol, 0 digit (digits are pre-split into groups of three). */
function charClass(code: number, char: string): number {
  if (code < 128) {
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return 1;
    if (code === 32 || (code >= 9 && code <= 13)) return 2;
    if (code >= 48 && code <= 57) return 0;
    return 3;
  }
  if (LETTER.test(char)) return 1;
  if (SPACE.test(char)) return 2;
  return NUMBER.test(char) ? 0 : 3;
}

/**
 * Counts `text` with `count`, slicing runs of more than {@link MAX_RUN_CHARS}
 * characters of one kind (see there). One pass over the characters; text
 * without such runs is counted in one call.
 */
export function countInRuns(text: string, count: (piece: string) => number): number {
  let tokens = 0;
  let position = 0;
  let runStart = 0;
  let runClass = -1;
  for (let index = 0; index <= text.length; index += 1) {
    const code = index < text.length ? text.charCodeAt(index) : -1;
    const kind = code < 0 ? -2 : charClass(code, text[index]!);
    if (kind === runClass && kind !== 0) continue;
    if (runClass > 0 && index - runStart >= MAX_RUN_CHARS) {
      if (runStart > position) tokens += count(text.slice(position, runStart));
      for (let start = runStart; start < index; start += MAX_RUN_CHARS) {
        tokens += count(text.slice(start, Math.min(index, start + MAX_RUN_CHARS)));
      }
      position = index;
    }
    runStart = index;
    runClass = kind;
  }
  if (position === 0) return count(text);
  if (position < text.length) tokens += count(text.slice(position));
  return tokens;
}
