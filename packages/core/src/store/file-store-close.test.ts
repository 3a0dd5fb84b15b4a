import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPACTION_STATE_SCHEMA, type CompactionState } from '../compaction/compaction-state.js';
import { fileStore } from './file-store.js';

// While `slow.on` is set, every history or record file the store opens closes 30 ms late (its
// lock files close at once, so releasing the lock does not wait for the delay by chance), and
// is counted until it has closed: a call that resolved while one of its files was still
// closing leaves the count above zero. The handles are real; only their close is delayed.
const slow = vi.hoisted(() => ({ on: false, closing: 0, closes: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = async (...args) => {
    const handle = await fs.open(...args);
    if (!slow.on || String(args[0]).endsWith('.lock')) return handle;
    const close = handle.close.bind(handle);
    handle.close = async () => {
      slow.closing += 1;
      slow.closes += 1;
      try {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return await close();
      } finally {
        slow.closing -= 1;
      }
    };
    return handle;
  };
  return { ...fs, default: { ...fs, open }, open };
});

const state = (version: number): CompactionState => ({
  schema: COMPACTION_STATE_SCHEMA,
  version,
  summary: `summary ${version}`,
  firstKeptMessageId: `m${version}`,
  summarizedRange: { fromIndex: 0, toIndex: version, messageCount: version + 1 },
  prunedToolCallIds: [],
  fileOps: { read: [], modified: [] },
  tokensBefore: 1000,
  tokensAfter: 200,
  strategy: 'structured',
  createdAt: new Date(0).toISOString(),
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-file-store-close-'));
});
afterEach(async () => {
  slow.on = false;
  await rm(dir, { recursive: true, force: true });
});

describe('fileStore and its file handles', () => {
  it('closes every file it opened before its call resolves (no handle outlives the lock)', async () => {
    const store = fileStore(dir);
    await store.appendHistory('s', [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }]);
    await store.saveRecord('s', { state: state(1) });
    slow.on = true;
    for (let round = 0; round < 3; round += 1) {
      await store.loadHistory('s');
      expect(slow.closing).toBe(0);
      await store.loadRecord('s');
      expect(slow.closing).toBe(0);
      await store.saveRecord('s', { state: state(round + 2) });
      expect(slow.closing).toBe(0);
      await store.appendHistory('s', [{ id: `n${round}`, role: 'user', parts: [{ type: 'text', text: 'again' }] }]);
      expect(slow.closing).toBe(0);
    }
    // The delay was really in the way: the store opened (and closed) files through it.
    expect(slow.closes).toBeGreaterThanOrEqual(9);
  });
});
