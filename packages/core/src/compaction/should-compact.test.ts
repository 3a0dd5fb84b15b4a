import { describe, expect, it } from 'vitest';
import { resolveSettings, triggerTokens } from '../settings/compaction-settings.js';
import { shouldCompact } from './should-compact.js';

const settings = resolveSettings(
  {
    contextWindow: 10_000,
    reserveTokens: 1_000,
    keepRecentTokens: 2_000,
    trigger: 0.5,
    minMessages: 4,
  },
  200_000,
);
const over = triggerTokens(settings) + 1;

describe('shouldCompact', () => {
  it('over the trigger with at least minMessages in the whole history', () => {
    expect(shouldCompact(over, settings, 4)).toBe(true);
    expect(shouldCompact(over - 1, settings, 4)).toBe(false);
    expect(shouldCompact(over, settings, 3)).toBe(false);
    expect(shouldCompact(over, settings)).toBe(true);
  });

  it('guards: stuck wins over everything, overflow over the threshold and the breaker, the breaker over the threshold', () => {
    expect(shouldCompact(1, settings, 0, { overflow: true })).toBe(true);
    expect(shouldCompact(over, settings, 9, { stuck: true, overflow: true })).toBe(false);
    expect(shouldCompact(over, settings, 9, { paused: true })).toBe(false);
    expect(shouldCompact(over, settings, 9, { paused: true, overflow: true })).toBe(true);
  });

  it('trigger 0 turns automatic compaction off', () => {
    const off = resolveSettings({ ...settings, trigger: 0 }, 200_000);
    expect(shouldCompact(Number.MAX_SAFE_INTEGER, off, 100)).toBe(false);
  });
});
