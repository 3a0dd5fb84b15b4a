/**
 * The line that carries the user's last request verbatim after a summary (seed 002:
 * "Last request from user was: …"). Everything after it, to the end of the summary, is
 * the request (the first such line counts: the summary body never holds one).
 */
export const LAST_REQUEST_PREFIX = 'Last request from user was: ';

/**
 * Splits a stored summary into its body and the carried last request (when present).
 *
 * @example
 * ```ts
 * splitLastRequest('## Goal\n…\n\nLast request from user was: fix the test');
 * // { body: '## Goal\n…', lastRequest: 'fix the test' }
 * ```
 */
export function splitLastRequest(summary: string): { body: string; lastRequest?: string } {
  const at = summary.indexOf(`\n${LAST_REQUEST_PREFIX}`);
  const start = summary.startsWith(LAST_REQUEST_PREFIX) ? 0 : at >= 0 ? at + 1 : -1;
  if (start < 0) return { body: summary.trimEnd() };
  return {
    body: summary.slice(0, start).trimEnd(),
    lastRequest: summary.slice(start + LAST_REQUEST_PREFIX.length),
  };
}

/** `body`, then the last request on its own paragraph (nothing added when there is none). */
export function appendLastRequest(body: string, lastRequest: string | undefined): string {
  const trimmedBody = body.trimEnd();
  if (lastRequest === undefined || !lastRequest.trim()) return trimmedBody;
  return `${trimmedBody}\n\n${LAST_REQUEST_PREFIX}${lastRequest}`;
}
