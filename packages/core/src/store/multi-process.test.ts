import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConversationRace } from '../../test/processes/conversation-race.js';
import { fileStore } from './file-store.js';
import { type SqliteStore, sqliteStore } from './sqlite-store.js';

// Several server processes on one conversation, compacting as they race: nothing is lost.
// RACE_RUNS raises the number of races (the suite runs 20 on sqlite, 5 on the file store).
const factories = new URL('../../test/processes/core-store-factories.ts', import.meta.url);
const runs = (base: number) => Math.max(base, Number(process.env.RACE_RUNS ?? 0));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-race-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('processes sharing one conversation', () => {
  it('sqliteStore: 4 processes × 50 turns, 20 races: every message once, versions only go up, 0 requests lost', async () => {
    const file = join(dir, 'race.db');
    const store: SqliteStore = sqliteStore(file);
    const race = await startConversationRace({
      factoryModule: factories,
      argument: `sqlite:${file}`,
      store,
      workers: 4,
      turns: 50,
    });
    try {
      for (let run = 0; run < runs(20); run++) {
        const outcome = await race.race(`race-${run}`);
        expect(outcome, `race ${run}`).toMatchObject({ duplicated: [], missing: [], lost: [], versionWentBack: [] });
        expect(outcome.version).toBeGreaterThan(0);
        expect(outcome.compactions, `race ${run}: every saved compaction is a new version`).toBe(outcome.version);
      }
    } finally {
      await race.stop();
      store.close();
    }
  }, 600_000);

  it('fileStore (r01: two processes on one session): 2 processes × 40 turns, 5 races, 0 requests lost', async () => {
    const folder = join(dir, 'files');
    const race = await startConversationRace({
      factoryModule: factories,
      argument: `file:${folder}`,
      store: fileStore(folder),
      workers: 2,
      turns: 40,
    });
    try {
      for (let run = 0; run < runs(5); run++) {
        const outcome = await race.race(`chat-${run}`);
        expect(outcome, `race ${run}`).toMatchObject({ duplicated: [], missing: [], lost: [], versionWentBack: [] });
        expect(outcome.version).toBeGreaterThan(0);
        expect(outcome.compactions, `race ${run}: every saved compaction is a new version`).toBe(outcome.version);
      }
    } finally {
      await race.stop();
    }
  }, 600_000);
});
