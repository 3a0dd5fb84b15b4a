import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { MessageUsage } from '../messages/types.js';

/**
 * Whether a call's reported input filled the whole context window: some providers
 * (Ollama, several local servers) silently drop the oldest tokens instead of failing,
 * and report an input count equal to (or above) the window. Compact before the next
 * call when this returns `true`. Missing or non-finite usage is `false`.
 *
 * @throws {InvalidSettingsError} when `contextWindow` is not a positive number.
 * @example
 * ```ts
 * isUsageOverflow({ inputTokens: 131_072 }, 131_072); // true
 * ```
 */
export function isUsageOverflow(usage: Pick<MessageUsage, 'inputTokens'> | undefined, contextWindow: number): boolean {
  if (!(contextWindow > 0) || !Number.isFinite(contextWindow)) {
    throw new InvalidSettingsError({
      setting: 'contextWindow',
      problem: `must be a positive number, got ${contextWindow}`,
    });
  }
  const inputTokens = usage?.inputTokens;
  return typeof inputTokens === 'number' && Number.isFinite(inputTokens) && inputTokens >= contextWindow;
}
