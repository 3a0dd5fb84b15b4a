import { describe, expect, it } from 'vitest';
import {
  calibrationRatio,
  MAX_CALIBRATION_RATIO,
  MIN_CALIBRATION_RATIO,
  MIN_CALIBRATION_TOKENS,
} from './calibration-ratio.js';

describe('calibrationRatio', () => {
  it('is reported / counted', () => {
    expect(calibrationRatio(12_000, 10_000)).toBe(1.2);
    expect(calibrationRatio(9_000, 10_000)).toBe(0.9);
  });

  it('clamps to [0.5, 2]', () => {
    expect([MIN_CALIBRATION_RATIO, MAX_CALIBRATION_RATIO]).toEqual([0.5, 2]);
    expect(calibrationRatio(50_000, 10_000)).toBe(2);
    expect(calibrationRatio(1_000, 10_000)).toBe(0.5);
  });

  it('ignores samples too small to tell', () => {
    expect(MIN_CALIBRATION_TOKENS).toBe(50);
    expect(calibrationRatio(120, 49)).toBeUndefined();
    expect(calibrationRatio(60, 50)).toBe(1.2);
  });

  it('ignores figures that are not positive finite numbers', () => {
    expect(calibrationRatio(0, 1_000)).toBeUndefined();
    expect(calibrationRatio(-5, 1_000)).toBeUndefined();
    expect(calibrationRatio(Number.NaN, 1_000)).toBeUndefined();
    expect(calibrationRatio(1_000, Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});
