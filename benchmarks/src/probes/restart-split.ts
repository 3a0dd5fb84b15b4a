/**
 * Where the first call after a restart spends its time, over the bench's 10,002-message
 * history left in a store by a previous session (with its usage record): the store's
 * `loadHistory()` alone, then a new session's first `prepare()` (which loads the history
 * again, checks it, builds its id map and context), then `recordUsage()` (one save).
 * Medians of 25 restarts, each over a new store.
 *
 * Usage: `node src/probes/restart-split.ts <file|sqlite>`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticHistory } from '@compaction/bench-kit/synthetic-history';
import {
  closeRestartStore,
  leaveConversation,
  openRestartStore,
  type RestartStoreKind,
  restartSession,
} from '../overhead/restart-work.ts';

const kind = (process.argv[2] ?? 'file') as RestartStoreKind;
if (kind !== 'file' && kind !== 'sqlite') throw new Error('usage: node src/probes/restart-split.ts <file|sqlite>');
const RESTARTS = 25;
const history = syntheticHistory(10_000);
const dir = mkdtempSync(join(tmpdir(), 'compaction-probe-restart-'));
try {
  const before = openRestartStore(kind, dir);
  await leaveConversation(before, history);
  closeRestartStore(before);
  const load: number[] = [];
  const prepare: number[] = [];
  const record: number[] = [];
  for (let restart = 0; restart < RESTARTS; restart += 1) {
    const store = openRestartStore(kind, dir);
    const loadStarted = performance.now();
    const loaded = await store.loadHistory('restart');
    load.push(performance.now() - loadStarted);
    const session = restartSession(store);
    const prepareStarted = performance.now();
    const prepared = await session.prepare();
    prepare.push(performance.now() - prepareStarted);
    const recordStarted = performance.now();
    await session.recordUsage({ inputTokens: prepared.tokens });
    record.push(performance.now() - recordStarted);
    closeRestartStore(store);
    if (loaded.length !== history.length || prepared.messages.length !== history.length) throw new Error('not loaded');
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(1);
  console.log(
    `${kind}: loadHistory() alone ${median(load)} ms · first prepare() ${median(prepare)} ms · recordUsage() ${median(record)} ms (medians of ${RESTARTS}, ${history.length} messages)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
