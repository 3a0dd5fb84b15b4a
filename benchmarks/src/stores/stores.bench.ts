/**
 * Issue 15's per-call overhead of each store at 2,000 messages: one call is what a
 * chat server does per turn — `append` the user's message, `prepare()` the
 * context, `recordUsage` (a record save) — on a conversation that already holds
 * 2,000 messages, with a window so large that nothing compacts (the figure is the
 * store's cost, not a compaction's). Two cases per store: a warm session (one
 * long-lived process) and a cold one (a serverless function: a new session per
 * call, which loads the conversation first). PostgreSQL and Redis run on
 * loopback (started by scripts/ensure-*.mjs when missing). Writes `stores.json`.
 * Needs a build (`pnpm bench` builds first).
 *
 *   node src/stores/stores.bench.ts   (from benchmarks/)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTiny, startResult } from '@compaction/bench-kit/bench-env';
import { percentile } from '@compaction/bench-kit/measure';
import { syntheticHistory } from '@compaction/bench-kit/synthetic-history';
import {
  createCompactionSession,
  fileStore,
  type Message,
  memoryStore,
  type SessionStore,
  sqliteStore,
} from '@compaction/core';
import { postgresStore } from '@compaction/postgres';
import { redisStore } from '@compaction/redis';
import pg from 'pg';
import { createClient } from 'redis';

const result = startResult('stores', 'cd benchmarks && node src/stores/stores.bench.ts');
const MESSAGES = isTiny() ? 40 : 2_000;
const CALLS = isTiny() ? 5 : 200;
const WARMUP = isTiny() ? 1 : 20;
const settings = { contextWindow: 50_000_000 };
const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Starts the loopback servers when they are missing (as the test command does). */
function ensure(script: string): void {
  const path = fileURLToPath(new URL(`../../../scripts/${script}`, import.meta.url));
  const run = spawnSync(process.execPath, [path], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`${script} failed`);
}

type Case = { store: string; mode: 'warm' | 'cold'; median: number; p90: number; calls: number; messages: number };

/** One call: the user's message, the prepared context, the usage report (a record save). */
async function call(session: ReturnType<typeof createCompactionSession>, turn: number): Promise<void> {
  await session.append({
    id: `turn-${turn}`,
    role: 'user',
    parts: [{ type: 'text', text: `Question ${turn}: what next?` }],
  });
  const prepared = await session.prepare();
  await session.recordUsage({ inputTokens: prepared.tokens + 50 });
}

async function measure(name: string, store: SessionStore): Promise<Case[]> {
  const cases: Case[] = [];
  for (const mode of ['warm', 'cold'] as const) {
    const sessionId = `bench-${name}-${mode}-${process.pid}`;
    await store.clear(sessionId);
    const history: Message[] = syntheticHistory(MESSAGES);
    for (let start = 0; start < history.length; start += 500) {
      await store.appendHistory(sessionId, history.slice(start, start + 500));
    }
    const warm = createCompactionSession({ sessionId, store, settings });
    await warm.history();
    const samples: number[] = [];
    for (let turn = 0; turn < WARMUP + CALLS; turn++) {
      const session = mode === 'warm' ? warm : createCompactionSession({ sessionId, store, settings });
      const started = performance.now();
      await call(session, turn);
      if (turn >= WARMUP) samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const row = {
      store: name,
      mode,
      median: percentile(samples, 0.5),
      p90: percentile(samples, 0.9),
      calls: CALLS,
      messages: MESSAGES,
    };
    console.log(`${name} ${mode}: median ${row.median.toFixed(2)} ms, p90 ${row.p90.toFixed(2)} ms`);
    cases.push(row);
    await store.clear(sessionId);
  }
  return cases;
}

ensure('ensure-postgres.mjs');
ensure('ensure-redis.mjs');
const dir = mkdtempSync(join(tmpdir(), 'compaction-stores-bench-'));
const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 4 });
const client = createClient({ url: REDIS_URL });
await client.connect();
const sqlite = sqliteStore(join(dir, 'sessions.db'));
try {
  const cases = [
    ...(await measure('memoryStore', memoryStore())),
    ...(await measure('fileStore', fileStore(join(dir, 'files')))),
    ...(await measure('sqliteStore', sqlite)),
    ...(await measure('postgresStore', postgresStore({ pool, tablePrefix: 'bench_' }))),
    ...(await measure('redisStore', redisStore({ client, keyPrefix: 'bench:' }))),
  ];
  console.log(`wrote ${result.finish({ cases })}`);
} finally {
  sqlite.close();
  await pool.query('DROP TABLE IF EXISTS bench_messages, bench_sessions').catch(() => undefined);
  await pool.end();
  client.destroy();
  rmSync(dir, { recursive: true, force: true });
}
