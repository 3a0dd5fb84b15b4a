import { InvalidSettingsError } from '../errors/invalid-settings-error.js';

/**
 * Runs `make` (a constructor or call given bad options) and returns the `setting`
 * its {@link InvalidSettingsError} names, so an option-check table reads
 * `expect(invalidSettingOf(() => make(options))).toBe('trigger')`. Throws when
 * `make` throws nothing, or anything other than an `InvalidSettingsError` (that
 * error is the cause): a check that fails the wrong way fails the test. Free of any
 * test framework.
 *
 * @example
 * ```ts
 * expect(invalidSettingOf(() => compactionMiddleware({ settings: { trigger: -1 } }))).toBe('trigger');
 * ```
 */
export function invalidSettingOf(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    if (InvalidSettingsError.isInstance(error)) return error.setting;
    throw new Error(`expected an InvalidSettingsError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected an InvalidSettingsError, but nothing was thrown');
}
