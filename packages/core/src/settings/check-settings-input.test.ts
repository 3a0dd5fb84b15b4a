import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkSettingsInput, SETTING_KEYS } from './check-settings-input.js';
import { resolveSettings } from './compaction-settings.js';

function errorOf(run: () => unknown): InvalidSettingsError {
  try {
    run();
  } catch (error) {
    expect(InvalidSettingsError.isInstance(error)).toBe(true);
    return error as InvalidSettingsError;
  }
  throw new Error('expected an InvalidSettingsError');
}

describe('checkSettingsInput', () => {
  it("names ours for LangChain summarizationMiddleware's trigger: { tokens } and keep: { messages }", () => {
    const trigger = errorOf(() => checkSettingsInput({ trigger: { tokens: 100_000 } }));
    expect(trigger.setting).toBe('trigger');
    expect(trigger.message).toContain('trigger: 100000');
    const keep = errorOf(() => checkSettingsInput({ keep: { messages: 20 } }));
    expect(keep.setting).toBe('keep');
    expect(keep.message).toContain('keepRecentMessages');
    expect(errorOf(() => checkSettingsInput({ maxTokensBeforeSummary: 1000 })).message).toContain('trigger');
    expect(errorOf(() => checkSettingsInput({ limit: 1000 })).message).toContain("Mastra's TokenLimiter");
  });

  it('suggests the closest key for a typo', () => {
    expect(errorOf(() => checkSettingsInput({ keepRecentToken: 100 })).message).toContain('"keepRecentTokens"');
    expect(errorOf(() => checkSettingsInput({ contextwindow: 100 })).message).toContain('"contextWindow"');
  });

  it.each([
    [{ minReduction: '0.5' }, 'minReduction'],
    [{ pruneToolOutputs: 'no' }, 'pruneToolOutputs'],
    [{ historyTools: 1 }, 'historyTools'],
    [{ trigger: 'lots' }, 'trigger'],
    [{ trigger: Number.NaN }, 'trigger'],
    [{ keepRecentTokens: -100 }, 'keepRecentTokens'],
    [{ keepRecentTokens: 1.5 }, 'keepRecentTokens'],
    [{ contextWindow: '128k' }, 'contextWindow'],
  ])('rejects %o naming %s', (settings, setting) => {
    expect(errorOf(() => checkSettingsInput(settings)).setting).toBe(setting);
  });

  it('rejects settings that are not an object', () => {
    expect(errorOf(() => checkSettingsInput('fast')).message).toContain('COMPACTION_PRESETS');
  });

  it('any unknown key is named, whatever its value', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !(SETTING_KEYS as readonly string[]).includes(key)),
        fc.anything().filter((value) => value !== undefined),
        (key, value) => {
          expect(errorOf(() => checkSettingsInput({ [key]: value })).setting).toBe(key);
        },
      ),
    );
  });

  it('any value of the wrong type for a number setting is named', () => {
    const numeric = SETTING_KEYS.filter(
      (key) => key !== 'pruneToolOutputs' && key !== 'protectedTools' && key !== 'historyTools',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...numeric),
        fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.object(), fc.constant(Number.NaN), fc.constant(-1)),
        (key, value) => {
          expect(errorOf(() => checkSettingsInput({ [key]: value })).setting).toBe(key);
        },
      ),
    );
  });
});

describe('resolveSettings: an absolute trigger too small to be meant', () => {
  it.each([80, 1.5, 50, 1000])('trigger: %d on a 200K window is an error suggesting the fraction', (trigger) => {
    const error = errorOf(() => resolveSettings({ trigger }, 200_000));
    expect(error.setting).toBe('trigger');
    expect(error.message).toMatch(/use a fraction, e\.g\. trigger: 0\.\d+/);
  });

  it('80 is read as 80% in the suggestion', () => {
    expect(errorOf(() => resolveSettings({ trigger: 80 }, 200_000)).message).toContain('trigger: 0.8');
    expect(errorOf(() => resolveSettings({ trigger: 800 }, 200_000)).message).toContain('trigger: 0.8 (80% of 200000)');
  });

  it('is below 1% of the window even when the reserve is lower', () => {
    const error = errorOf(() => resolveSettings({ trigger: 5_000, reserveTokens: 1_000 }, 1_000_000));
    expect(error.message).toContain('1% of contextWindow (10000)');
  });

  it('accepts absolute triggers at or above both floors', () => {
    expect(resolveSettings({ trigger: 16_384 }, 200_000).trigger).toBe(16_384);
    expect(resolveSettings({ trigger: 1_000, reserveTokens: 500 }, 8_000).trigger).toBe(1_000);
  });
});
