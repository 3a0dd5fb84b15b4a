import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runConversationRaces } from '../../test/processes/run-conversation-races.js';
import { fileStore } from './file-store.js';
import { type SqliteStore, sqliteStore } from './sqlite-store.js';

// Several server processes on one conversation, compacting as they race: nothing is lost.
// RACE_RUNS raises the number of races (the suite runs 20 on sqlite, 5 on the file store).
const factories = new URL('../../test/processes/core-store-factories.ts', import.meta.url);
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
    try {
      await runConversationRaces({
        factoryModule: factories,
        argument: `sqlite:${file}`,
        store,
        workers: 4,
        turns: 50,
        runs: 20,
      });
    } finally {
      store.close();
    }
  }, 600_000);

  it('fileStore (r01: two processes on one session): 2 processes × 40 turns, 5 races, 0 requests lost', async () => {
    const folder = join(dir, 'files');
    await runConversationRaces({
      factoryModule: factories,
      argument: `file:${folder}`,
      store: fileStore(folder),
      workers: 2,
      turns: 40,
      runs: 5,
      sessionPrefix: 'chat-',
    });
  }, 600_000);
});
