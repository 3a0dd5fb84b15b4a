import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { describeValue } from '../settings/check-option-keys.js';
import { isBlankString } from '../settings/check-session-id.js';

/**
 * Checks that a store factory's path argument is a path string: not a `URL`
 * (told to pass `fileURLToPath(url)`), not a number or nothing, not `''` or only
 * whitespace (which would resolve to the working directory or a folder named
 * with spaces), not holding a NUL character (Node refuses such a path at first
 * use). Throws {@link InvalidSettingsError} naming `setting`.
 *
 * @param value - What the factory received.
 * @param setting - The parameter's name (`dir`, `path`).
 * @param usage - How the call reads with a good value, for the message (`fileStore('.sessions')`).
 */
export function checkPathString(value: unknown, setting: string, usage: string): asserts value is string {
  if (value instanceof URL) {
    throw new InvalidSettingsError({
      setting,
      problem: `must be a path string, got a URL (${value.href}); pass fileURLToPath(url) from node:url, e.g. ${usage}`,
    });
  }
  if (typeof value === 'string' && value.includes('\0')) {
    throw new InvalidSettingsError({
      setting,
      problem: `must be a path string without NUL characters, got ${describeValue(value)}; a path cannot hold one`,
    });
  }
  if (typeof value === 'string' && !isBlankString(value)) return;
  const blank =
    typeof value === 'string'
      ? value.length === 0
        ? " ('' would be the working directory: pass '.' to mean it)"
        : ' (only whitespace)'
      : '';
  throw new InvalidSettingsError({
    setting,
    problem: `must be a non-empty path string, e.g. ${usage}, got ${describeValue(value)}${blank}`,
  });
}
