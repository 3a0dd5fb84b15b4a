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
 * - `samples` > 1: the sample stands for that many calls' samples (one sample taken over a
 *   stretch of calls, see `UsageRecord.reportsSinceCounted`), folded in as that many
 *   equal samples: `previous + (1 − (1 − CALIBRATION_ALPHA)^samples) × (sample − previous)`.
 *
 * @param samples - how many per-call samples the one sample stands for (a whole number ≥ 1).
 * @default samples 1
 * @example
 * ```ts
 * let ratio: number | undefined;
 * ratio = updateCalibration(ratio, 11_000, 10_000); // 1.1
 * ratio = updateCalibration(ratio, 14_000, 10_000); // 1.1 + 0.3 × 0.3 = 1.19
 * updateCalibration(1, 12_000, 10_000, 2); // 1 + 0.51 × 0.2 = 1.102
 * ```
 */
export function updateCalibration(
  previousRatio: number | undefined,
  reported: number,
  counted: number,
  samples = 1,
): number | undefined {
  const sample = calibrationRatio(reported, counted);
  if (sample === undefined) return previousRatio;
  if (previousRatio === undefined || !Number.isFinite(previousRatio)) return sample;
  const weight = samples <= 1 ? CALIBRATION_ALPHA : 1 - (1 - CALIBRATION_ALPHA) ** Math.floor(samples);
  return previousRatio + weight * (sample - previousRatio);
}
