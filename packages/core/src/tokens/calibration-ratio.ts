/** Smallest calibration ratio {@link calibrationRatio} returns. */
export const MIN_CALIBRATION_RATIO = 0.5;

/** Largest calibration ratio {@link calibrationRatio} returns. */
export const MAX_CALIBRATION_RATIO = 2;

/** Below this many counted tokens a sample is too small to calibrate from (fixed overheads dominate). */
export const MIN_CALIBRATION_TOKENS = 50;

/**
 * How far the provider's count is from ours for the same prompt: `reported / counted`,
 * clamped to [{@link MIN_CALIBRATION_RATIO}, {@link MAX_CALIBRATION_RATIO}].
 *
 * Multiply a local count by the ratio to approximate what the provider will report
 * (another tokenizer, chat template, tool schemas). The clamp bounds the damage of a
 * skewed sample, e.g. a large system prompt or tool definitions that the provider
 * counted and the local count did not see.
 *
 * @param reported - input tokens the provider reported for a call.
 * @param counted - tokens the local counter gave the messages of that same call.
 * @returns the ratio, or `undefined` when the sample is unusable: `counted` below
 * {@link MIN_CALIBRATION_TOKENS}, or either figure not a positive finite number.
 * @example
 * ```ts
 * calibrationRatio(12_000, 10_000); // 1.2
 * calibrationRatio(120, 10); // undefined (too small to tell)
 * ```
 */
export function calibrationRatio(reported: number, counted: number): number | undefined {
  if (!Number.isFinite(reported) || !Number.isFinite(counted)) return undefined;
  if (reported <= 0 || counted < MIN_CALIBRATION_TOKENS) return undefined;
  return Math.min(MAX_CALIBRATION_RATIO, Math.max(MIN_CALIBRATION_RATIO, reported / counted));
}
