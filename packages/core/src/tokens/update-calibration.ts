import { calibrationRatio } from './calibration-ratio.js';

/**
 * Weight of the newest sample in {@link updateCalibration}'s moving average. At 0.3
 * one odd call moves the ratio by under a third of its deviation, and a real change
 * (a new model, a new system prompt) is mostly absorbed within about five calls.
 */
export const CALIBRATION_ALPHA = 0.3;

/**
 * Folds one more (reported, counted) sample into a calibration ratio with an
 * exponential moving average: `previous + CALIBRATION_ALPHA × (sample − previous)`,
 * where the sample is {@link calibrationRatio}`(reported, counted)`.
 *
 * - No previous ratio: the sample itself.
 * - Unusable sample (see `calibrationRatio`): the previous ratio, unchanged.
 *
 * @example
 * ```ts
 * let ratio: number | undefined;
 * ratio = updateCalibration(ratio, 11_000, 10_000); // 1.1
 * ratio = updateCalibration(ratio, 14_000, 10_000); // 1.1 + 0.3 × 0.3 = 1.19
 * ```
 */
export function updateCalibration(
  previousRatio: number | undefined,
  reported: number,
  counted: number,
): number | undefined {
  const sample = calibrationRatio(reported, counted);
  if (sample === undefined) return previousRatio;
  if (previousRatio === undefined || !Number.isFinite(previousRatio)) return sample;
  return previousRatio + CALIBRATION_ALPHA * (sample - previousRatio);
}
