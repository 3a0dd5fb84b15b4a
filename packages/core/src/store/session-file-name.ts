/** Longest escaped id kept whole; longer ones are cut and made unique by a hash. */
const MAX_ESCAPED_LENGTH = 100;

const UNSAFE = /[^A-Za-z0-9._-]/gu;
/** Names Windows reserves whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

function escapeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  // A lone surrogate has no UTF-8 form: spell its code unit so it stays distinct.
  if (code >= 0xd800 && code <= 0xdfff) return `%u${code.toString(16).toUpperCase()}`;
  return [...Buffer.from(character, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/**
 * The base file name (no extension) that stores a session id: every character
 * outside `[A-Za-z0-9._-]` is escaped as `%XX` UTF-8 bytes (a lone surrogate as
 * `%uXXXX`), so distinct ids give distinct names. Ids that are long, contain capitals (which collide on
 * case-insensitive file systems) or are reserved on Windows get a `~` and a
 * short hash of the id appended; `~` is escaped everywhere else, so hashed and
 * plain names never meet.
 *
 * @example
 * sessionFileName('user/42'); // 'user%2F42'
 */
export function sessionFileName(sessionId: string): string {
  const escaped = sessionId.replace(UNSAFE, escapeCharacter);
  const needsHash = escaped.length > MAX_ESCAPED_LENGTH || /[A-Z]/.test(sessionId) || RESERVED.test(escaped);
  if (!needsHash) return escaped;
  // node:crypto is loaded on first use, not when core is imported (loading it costs 15–40 ms).
  const hash = process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(sessionId, 'utf8')
    .digest('hex')
    .slice(0, 16);
  return `${escaped.slice(0, MAX_ESCAPED_LENGTH)}~${hash}`;
}
