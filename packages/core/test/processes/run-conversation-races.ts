import type { SessionStore } from '@compaction/core';
import { expect } from 'vitest';
import { startConversationRace } from './conversation-race.js';

/**
 * The multi-process test every store runs: `workers` processes, each with the
 * store opened from `factoryModule`, play `turns` turns on one conversation at
 * the same time, `runs` times (at least; `RACE_RUNS` raises it). After each race
 * every message is stored once, no request is lost, the version only went up and
 * every saved compaction is a new version. The workers are stopped at the end,
 * whatever happened.
 */
export async function runConversationRaces(options: {
  /** Module exporting `createStore(argument)`, opened in each worker. */
  factoryModule: URL;
  argument: string;
  /** The same store, opened in this process to check each outcome. */
  store: SessionStore;
  workers: number;
  turns: number;
  /** How many races at least. */
  runs: number;
  /**
   * The conversations' id before the race number.
   * @default 'race-'
   */
  sessionPrefix?: string;
}): Promise<void> {
  const { runs, sessionPrefix = 'race-', ...raceOptions } = options;
  const race = await startConversationRace(raceOptions);
  try {
    for (let run = 0; run < Math.max(runs, Number(process.env.RACE_RUNS ?? 0)); run++) {
      const outcome = await race.race(`${sessionPrefix}${run}`);
      expect(outcome, `race ${run}`).toMatchObject({ duplicated: [], missing: [], lost: [], versionWentBack: [] });
      expect(outcome.version).toBeGreaterThan(0);
      expect(outcome.compactions, `race ${run}: every saved compaction is a new version`).toBe(outcome.version);
    }
  } finally {
    await race.stop();
  }
}
