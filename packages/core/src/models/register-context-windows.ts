import { toContextWindowMap } from './to-context-window-map.js';

/** Windows registered for this process, normalized. Read by `getContextWindow`. */
export const registeredContextWindows = new Map<string, number>();

/**
 * Adds or replaces context windows for the whole process (every later
 * `getContextWindow` call sees them). Keys are model ids or id prefixes, normalized
 * and matched like the built-in table (`normalizeModelId`); registered entries take
 * precedence over built-in ones. Use it for fine-tunes, Azure deployment names, local
 * models served with a custom context size, or models newer than this package.
 *
 * @throws {InvalidSettingsError} when a window is not a positive integer; nothing is registered then.
 * @example
 * ```ts
 * registerContextWindows({ 'my-azure-gpt4o': 128_000, 'qwen3:32b': 40_960 });
 * ```
 */
export function registerContextWindows(windows: Readonly<Record<string, number>>): void {
  for (const [key, tokens] of toContextWindowMap(windows, 'contextWindows')) registeredContextWindows.set(key, tokens);
}

/** Removes every window added with {@link registerContextWindows} (built-in values remain). */
export function clearRegisteredContextWindows(): void {
  registeredContextWindows.clear();
}
