import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkOptionKeys, describeValue } from './check-option-keys.js';

const COMPACT_OPTION_KEYS = ['instructions', 'keepRecentTokens', 'signal'] as const;

/**
 * Checks the options of a manual `session.compact(options)`: known keys (the
 * trigger and the other settings belong to the session), `keepRecentTokens` a
 * whole number of tokens ≥ 0, `instructions` a string, `signal` an `AbortSignal`.
 * Throws {@link InvalidSettingsError} naming the option.
 */
export function checkCompactOptions(options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `compact() takes { instructions?, keepRecentTokens?, signal? }, got ${describeValue(options)}`,
    });
  }
  const given = options as Record<string, unknown>;
  if (given.trigger !== undefined) {
    throw new InvalidSettingsError({
      setting: 'trigger',
      problem: `compact() always compacts; the trigger is a session setting (createCompactionSession({ settings: { trigger } })). To keep more or less, pass keepRecentTokens`,
    });
  }
  checkOptionKeys(given, COMPACT_OPTION_KEYS, 'compact() option');
  const { keepRecentTokens, instructions, signal } = given;
  if (
    keepRecentTokens !== undefined &&
    (typeof keepRecentTokens !== 'number' || !Number.isInteger(keepRecentTokens) || keepRecentTokens < 0)
  ) {
    throw new InvalidSettingsError({
      setting: 'keepRecentTokens',
      problem: `must be a whole number of tokens ≥ 0, got ${describeValue(keepRecentTokens)}`,
    });
  }
  checkFocusAndSignal(instructions, signal);
}

/**
 * The options every manual compaction takes (`session.compact` and the pure
 * `compact`): `instructions` a string, `signal` an `AbortSignal`. Throws
 * {@link InvalidSettingsError} naming the option.
 */
export function checkFocusAndSignal(instructions: unknown, signal: unknown): void {
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw new InvalidSettingsError({
      setting: 'instructions',
      problem: `must be a string (the focus of the summary), got ${describeValue(instructions)}`,
    });
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidSettingsError({
      setting: 'signal',
      problem: `must be an AbortSignal, got ${describeValue(signal)}`,
    });
  }
}
