import type { CompactionSettings } from '@compaction/core';
import { parseTokenCount } from './parse-token-count.js';

/** The compaction settings the `--trigger`, `--keep` and `--window` flags set. */
export function settingsFromFlags(values: {
  trigger?: string;
  keep?: string;
  window?: string;
}): Partial<CompactionSettings> {
  return {
    ...(values.trigger === undefined ? {} : { trigger: parseTokenCount('trigger', values.trigger) }),
    ...(values.keep === undefined ? {} : { keepRecentTokens: parseTokenCount('keep', values.keep) }),
    ...(values.window === undefined ? {} : { contextWindow: parseTokenCount('window', values.window) }),
  };
}

/** The flag definitions shared by `replay` and `chat`. */
export const SETTINGS_FLAGS = {
  trigger: { type: 'string' },
  keep: { type: 'string' },
  window: { type: 'string' },
} as const;
