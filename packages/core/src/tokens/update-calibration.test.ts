import { describe, expect, it } from 'vitest';
import { CALIBRATION_ALPHA, updateCalibration } from './update-calibration.js';

describe('updateCalibration', () => {
  it('starts from the first usable sample', () => {
    expect(updateCalibration(undefined, 11_000, 10_000)).toBe(1.1);
  });

  it('moves toward each new sample by alpha', () => {
    expect(CALIBRATION_ALPHA).toBe(0.3);
    expect(updateCalibration(1.1, 14_000, 10_000)).toBeCloseTo(1.19, 10);
    expect(updateCalibration(1.5, 10_000, 10_000)).toBeCloseTo(1.35, 10);
  });

  it('uses the clamped sample', () => {
    expect(updateCalibration(1, 100_000, 10_000)).toBeCloseTo(1 + 0.3 * (2 - 1), 10);
  });

  it('keeps the previous ratio when the sample is unusable', () => {
    expect(updateCalibration(1.2, 100, 10)).toBe(1.2);
    expect(updateCalibration(undefined, 100, 10)).toBeUndefined();
    expect(updateCalibration(1.2, Number.NaN, 10_000)).toBe(1.2);
  });

  it('converges on a steady ratio', () => {
    let ratio: number | undefined = 1;
    for (let call = 0; call < 30; call += 1) ratio = updateCalibration(ratio, 13_000, 10_000);
    expect(ratio).toBeCloseTo(1.3, 3);
  });

  it('folds a sample that stands for several calls in as that many equal samples', () => {
    for (const previous of [undefined, 0.8, 1, 1.3, 1.9]) {
      for (const samples of [1, 2, 3, 7, 20]) {
        let oneByOne = previous;
        for (let call = 0; call < samples; call += 1) oneByOne = updateCalibration(oneByOne, 11_500, 10_000);
        expect(updateCalibration(previous, 11_500, 10_000, samples)).toBeCloseTo(oneByOne!, 12);
      }
    }
    expect(updateCalibration(1, 12_000, 10_000, 2)).toBeCloseTo(1.102, 12);
  });
});
