import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { describeValue } from './check-option-keys.js';

/** How {@link checkSessionId} names the value in its message. */
export type SessionIdCheckOptions = {
  /**
   * The option name reported in the error's `setting`.
   * @default 'sessionId'
   */
  readonly setting?: string;
  /**
   * What the id is, in the caller's words, for the message.
   * @default 'your chat id'
   */
  readonly what?: string;
};

/**
 * Whether a string holds no visible character: `''` or only whitespace
 * (`'   '`, `'\n'`). Such a value is an unset variable far more often than a
 * chosen key, so the option checks refuse it like `''`.
 */
export function isBlankString(value: string): boolean {
  return value.trim().length === 0;
}

/**
 * The one rule for a session id, shared by core's `createCompactionSession` and
 * every adapter: a string with at least one non-whitespace character. `''`,
 * `'   '`, a number or nothing throw {@link InvalidSettingsError} at once
 * (naming `setting`) that says what to pass. Leading or trailing spaces are
 * kept and accepted (`' chat-1'` may be a key a store already holds).
 *
 * @example
 * ```ts
 * if (given.sessionId !== undefined) checkSessionId(given.sessionId);
 * checkSessionId(chatId, { setting: 'chatId' });
 * ```
 */
export function checkSessionId(value: unknown, options: SessionIdCheckOptions = {}): asserts value is string {
  if (typeof value === 'string' && !isBlankString(value)) return;
  const { setting = 'sessionId', what = 'your chat id' } = options;
  const lead =
    value === undefined
      ? 'is required: a non-empty string'
      : typeof value === 'string' && value.length > 0
        ? 'must not be only whitespace: a non-empty string'
        : 'must be a non-empty string';
  const hint = typeof value === 'string' && value.length > 0 ? ' (a blank id is most likely an unset variable)' : '';
  throw new InvalidSettingsError({
    setting,
    problem: `${lead} (${what}) that keys the conversation in the store, got ${describeValue(value)}${hint}`,
  });
}
