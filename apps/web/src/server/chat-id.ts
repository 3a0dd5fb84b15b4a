/** What a chat id may be: it names a file, so letters, digits, `-` and `_`, at most 80. */
export const CHAT_ID_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;

/** Whether `value` is a valid chat id (see {@link CHAT_ID_PATTERN}). */
export function isChatId(value: unknown): value is string {
  return typeof value === 'string' && CHAT_ID_PATTERN.test(value);
}
