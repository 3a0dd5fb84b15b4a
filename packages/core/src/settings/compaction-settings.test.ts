import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { DEFAULT_COMPACTION_SETTINGS, resolveSettings, triggerTokens } from './compaction-settings.js';

describe('resolveSettings', () => {
  it('applies the defaults and the window', () => {
    const settings = resolveSettings(undefined, 200_000);
    expect(settings).toMatchObject({ ...DEFAULT_COMPACTION_SETTINGS, contextWindow: 200_000 });
  });

  it('scales unset reserve and keep to a quarter of a small window, and keeps explicit ones', () => {
    expect(resolveSettings({ contextWindow: 8_000 }, 0)).toMatchObject({
      reserveTokens: 2_000,
      keepRecentTokens: 2_000,
    });
    expect(resolveSettings({ contextWindow: 8_000, keepRecentTokens: 1_000 }, 0).keepRecentTokens).toBe(1_000);
  });

  it.each([
    [{ trigger: -1 }, 'trigger'],
    [{ trigger: 300_000 }, 'trigger'],
    [{ reserveTokens: 1.5 }, 'reserveTokens'],
    [{ keepRecentTokens: 190_000 }, 'keepRecentTokens'],
    [{ keepRecentMessages: 0 }, 'keepRecentMessages'],
    [{ minMessages: -2 }, 'minMessages'],
    [{ splitTurnMinMessages: 0 }, 'splitTurnMinMessages'],
    [{ minReduction: 1 }, 'minReduction'],
    [{ contextWindow: 0 }, 'contextWindow'],
  ])('rejects %o naming %s', (settings, setting) => {
    try {
      resolveSettings(settings, 200_000);
      expect.unreachable();
    } catch (error) {
      expect(InvalidSettingsError.isInstance(error)).toBe(true);
      expect((error as InvalidSettingsError).setting).toBe(setting);
      expect((error as Error).message).toContain(`setting "${setting}"`);
    }
  });
});

describe('triggerTokens', () => {
  it('is a fraction of the window, capped so that reserveTokens stay free', () => {
    expect(triggerTokens(resolveSettings({}, 200_000))).toBe(160_000);
    expect(triggerTokens(resolveSettings({ trigger: 0.95 }, 200_000))).toBe(200_000 - 16_384);
  });

  it('takes an absolute limit above 1 and 0 as off', () => {
    expect(triggerTokens(resolveSettings({ trigger: 50_000 }, 200_000))).toBe(50_000);
    expect(triggerTokens(resolveSettings({ trigger: 0 }, 200_000))).toBe(Number.POSITIVE_INFINITY);
  });
});
