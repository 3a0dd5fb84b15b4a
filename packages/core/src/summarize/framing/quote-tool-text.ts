import { oneLine, shorten } from '../structured/summary-facts.js';

/** `text` on one line, as tool text is quoted: see {@link oneLine}. */
export function dataLine(text: string): string {
  return oneLine(text);
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
