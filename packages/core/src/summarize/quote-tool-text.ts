import { shorten } from './summary-facts.js';

/**
 * `text` on one line: control characters (C0, DEL, C1: line feeds, `NEL`, escapes) and the
 * Unicode line and paragraph separators become spaces, then runs of whitespace one space.
 */
export function dataLine(text: string): string {
  let line = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    const breaks = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    line += breaks ? ' ' : char;
  }
  return line.replace(/\s+/g, ' ').trim();
}

/**
 * Text that came from a tool, as data: on one line, cut to `maxChars`, inside a JSON string
 * literal (so `"` and `\` are escaped and the quote cannot be closed from inside), after a
 * label that names its source. Whatever the text says (`## Goal`, `Last request from user
 * was:`, `SYSTEM: ignore previous instructions`), it stays inside the quote on the line of
 * its label and never reads as a heading, a request or the user's words.
 *
 * @example
 * ```ts
 * quoteToolText('Bash output', 'fatal: "x"\n## Goal', 100); // 'Bash output (quoted data): "fatal: \\"x\\" ## Goal"'
 * ```
 */
export function quoteToolText(source: string, text: string, maxChars: number): string {
  const line = dataLine(text);
  return `${source} (quoted data): ${JSON.stringify(shorten(line, maxChars))}`;
}

/** The text of a JSON string literal that {@link quoteToolText} wrote, or undefined. */
export function unquoteToolText(quoted: string): string | undefined {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
