import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { invalidSettingOf } from './invalid-setting-of.js';

describe('invalidSettingOf', () => {
  it('gives the setting the InvalidSettingsError names', () => {
    expect(
      invalidSettingOf(() => {
        throw new InvalidSettingsError({ setting: 'settings.trigger', problem: 'must be a number' });
      }),
    ).toBe('settings.trigger');
  });

  it('fails when nothing is thrown', () => {
    expect(() => invalidSettingOf(() => 1)).toThrow(/nothing was thrown/);
  });

  it('fails on any other error, keeping it as the cause', () => {
    const other = new TypeError('x is not a function');
    let caught: unknown;
    try {
      invalidSettingOf(() => {
        throw other;
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(/expected an InvalidSettingsError, got TypeError: x is not a function/);
    expect((caught as Error).cause).toBe(other);
  });
});
