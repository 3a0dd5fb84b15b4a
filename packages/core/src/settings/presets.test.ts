import { describe, expect, it } from 'vitest';
import {
  COMPACT_STRUCTURED_BUDGET,
  DEFAULT_STRUCTURED_BUDGET,
} from '../summarize/structured/build-structured-summary.js';
import { DEFAULT_COMPACTION_SETTINGS, resolveSettings, triggerTokens } from './compaction-settings.js';
import { COMPACTION_PRESETS, DEFAULT_PRESET, ECONOMY_PRESET } from './presets.js';

describe('COMPACTION_PRESETS', () => {
  it('names both presets', () => {
    expect(COMPACTION_PRESETS.default).toBe(DEFAULT_PRESET);
    expect(COMPACTION_PRESETS.economy).toBe(ECONOMY_PRESET);
  });

  it('default resolves to exactly the default settings', () => {
    expect(resolveSettings(DEFAULT_PRESET.settings, 200_000)).toEqual(resolveSettings(undefined, 200_000));
    expect(DEFAULT_PRESET.settings.trigger).toBe(DEFAULT_COMPACTION_SETTINGS.trigger);
    expect(DEFAULT_PRESET.summaryMaxTokens).toBe(DEFAULT_STRUCTURED_BUDGET);
  });

  it('economy compacts earlier, keeps less and summarizes at the compact budget', () => {
    const economy = resolveSettings(ECONOMY_PRESET.settings, 200_000);
    const defaults = resolveSettings(DEFAULT_PRESET.settings, 200_000);
    expect(triggerTokens(economy)).toBe(50_000);
    expect(triggerTokens(economy)).toBeLessThan(triggerTokens(defaults));
    expect(economy.keepRecentTokens).toBeLessThan(defaults.keepRecentTokens);
    expect(economy.pruneToolOutputs).toBe(true);
    expect(ECONOMY_PRESET.summaryMaxTokens).toBe(COMPACT_STRUCTURED_BUDGET);
  });

  it('economy is valid for a 32K window and leaves room after compacting', () => {
    const settings = resolveSettings(ECONOMY_PRESET.settings, 32_000);
    expect(settings.keepRecentTokens + ECONOMY_PRESET.summaryMaxTokens).toBeLessThan(triggerTokens(settings));
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(ECONOMY_PRESET)).toBe(true);
    expect(Object.isFrozen(ECONOMY_PRESET.settings)).toBe(true);
    expect(() => {
      (ECONOMY_PRESET.settings as { trigger: number }).trigger = 0.9;
    }).toThrow(TypeError);
  });
});
