import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkOptionKeys, describeValue } from '../settings/check-option-keys.js';

/**
 * Checks a store factory's options object when the store is made: absent, or
 * an object whose keys are all in `known` (a misspelt key is told the closest
 * one, e.g. `lockTimeout` → `lockTimeoutMs`). Throws {@link InvalidSettingsError}
 * naming the option (`options` when the object itself is wrong).
 *
 * @param options - What the factory received.
 * @param known - The factory's option keys.
 * @param where - The factory, for messages (`fileStore`).
 * @returns The options, `{}` when absent.
 */
export function checkStoreOptions<T extends object>(
  options: T | undefined,
  known: readonly string[],
  where: string,
): T {
  if (options === undefined) return {} as T;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `${where} takes an options object ({ ${known.join(', ')} }) as its second argument, got ${describeValue(options)}`,
    });
  }
  checkOptionKeys(options, known, `${where} option`);
  return options;
}
