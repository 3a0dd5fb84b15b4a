import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import { countMessageTokens } from './count-message-tokens.js';
import type { TokenCache } from './create-token-cache.js';
import type { TokenCounter } from './token-counter.js';

/** The provider's input-token report for the last call, and how many of `messages` that call saw. */
export type LastUsage = {
  /** Input tokens the provider reported (cached input included). */
  inputTokens: number;
  /** How many messages, from the start of the list, that call's prompt held. */
  messageCount: number;
};

/** Options of {@link estimateContextTokens}. */
export type EstimateContextOptions = {
  /** Counts the messages the provider has not reported on. */
  counter: TokenCounter;
  /**
   * The last call's reported usage. When given, it replaces the count of the first
   * `messageCount` messages.
   * @default undefined (count every message)
   */
  lastUsage?: LastUsage;
  /**
   * Calibration ratio applied to counted tokens (see `updateCalibration`); reported
   * tokens are never scaled.
   * @default 1
   */
  ratio?: number;
  /**
   * Per-message count cache built with the same counter; repeated estimates then
   * only count new messages.
   * @default undefined (count every time)
   */
  cache?: TokenCache;
};

/**
 * Counted tokens → the context size the provider will report: the count × the
 * calibration `ratio` (rounded up), plus `offset`, the tokens the provider counts
 * that the messages do not hold (system prompt, tool definitions).
 *
 * @example
 * ```ts
 * calibratedTokens(1_000, 1.08, 350); // 1_430
 * ```
 */
export function calibratedTokens(counted: number, ratio = 1, offset = 0): number {
  return Math.ceil(counted * ratio) + offset;
}

function invalid(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}

/**
 * Estimates how many input tokens `messages` will cost, the hybrid way (seed 004):
 *
 * - with `lastUsage`: `lastUsage.inputTokens` (exact, as the provider counted it)
 *   plus the counted tokens of `messages.slice(lastUsage.messageCount)` × `ratio`;
 * - without it: the counted tokens of every message × `ratio`.
 *
 * Counting follows `countMessageTokens`. A `lastUsage` that claims more messages than
 * the list holds describes another context (e.g. from before a compaction) and is
 * ignored. The scaled count is rounded up.
 *
 * @throws {InvalidSettingsError} when `ratio` is not a positive finite number, `lastUsage`
 * holds a negative or non-finite figure, or `cache` was built with another counter.
 * @example
 * ```ts
 * estimateContextTokens(history, {
 *   counter: tiktokenCounter(),
 *   lastUsage: { inputTokens: 41_250, messageCount: history.length - 2 },
 *   ratio: 1.08,
 * });
 * ```
 */
export function estimateContextTokens(messages: readonly Message[], options: EstimateContextOptions): number {
  const { counter, lastUsage, ratio = 1, cache } = options;
  if (!(ratio > 0) || !Number.isFinite(ratio)) invalid('ratio', `must be a positive finite number, got ${ratio}`);
  if (cache && cache.counter.name !== counter.name) {
    invalid('cache', `was built with counter "${cache.counter.name}" but the estimate uses "${counter.name}"`);
  }
  let base = 0;
  let start = 0;
  if (lastUsage) {
    const { inputTokens, messageCount } = lastUsage;
    if (!(inputTokens >= 0) || !Number.isFinite(inputTokens)) {
      invalid('lastUsage.inputTokens', `must be a finite number >= 0, got ${inputTokens}`);
    }
    if (!Number.isInteger(messageCount) || messageCount < 0) {
      invalid('lastUsage.messageCount', `must be an integer >= 0, got ${messageCount}`);
    }
    if (messageCount <= messages.length) {
      base = inputTokens;
      start = messageCount;
    }
  }
  let counted = 0;
  for (let index = start; index < messages.length; index += 1) {
    const message = messages[index]!;
    counted += cache ? cache.count(message) : countMessageTokens(message, counter);
  }
  return base + calibratedTokens(counted, ratio);
}
