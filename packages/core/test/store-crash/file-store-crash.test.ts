import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStore } from '../../src/store/file-store.js';
import type { FileStoreWarning } from '../../src/store/history-file.js';
import { sessionFileName } from '../../src/store/session-file-name.js';

const KILLS = 100;
/** Share of kills after which the test also leaves a torn line, as a crash mid-write (or a power loss) would. */
const TORN_TAIL_SHARE = 0.15;
const SESSION_ID = 'crash/session:1 ✓';
const HOOK = fileURLToPath(new URL('./resolve-ts.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function seededRandom(seed: number): () => number {
  let value = seed >>> 0;
  return () => {
    value = (value + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(value ^ (value >>> 15), 1 | value);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type ChildReport = { start?: number; appended: number[]; saved: number[] };

/** Runs the child until `killAfterMs` after it reports `start`, then SIGKILLs it. */
function runAndKill(dir: string, killAfterMs: number): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', HOOK, CHILD, dir, SESSION_ID], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (timer === undefined && stdout.includes('start ')) {
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      clearTimeout(timer);
      if (signal !== 'SIGKILL' || timer === undefined) {
        reject(new Error(`child ended with code ${code} signal ${signal} before it was killed:\n${stderr}`));
        return;
      }
      const report: ChildReport = { appended: [], saved: [] };
      // Only complete lines count: a kill can cut the report itself short.
      for (const line of stdout.split('\n').slice(0, -1)) {
        const [word, value = ''] = line.split(' ');
        if (word === 'start') report.start = Number(value);
        else if (word === 'appended') report.appended.push(Number(value.slice('m-'.length)));
        else if (word === 'saved') report.saved.push(Number(value));
      }
      resolve(report);
    });
  });
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('fileStore under SIGKILL', () => {
  it(`keeps record and history consistent across ${KILLS} kills at random moments`, async () => {
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = seededRandom(seed);
    const dir = await mkdtemp(join(tmpdir(), 'compaction-crash-'));
    dirs.push(dir);
    const warnings: FileStoreWarning[] = [];
    const store = fileStore(dir, { onWarning: (warning) => warnings.push(warning) });
    let knownIds: string[] = [];
    let recordVersion = 0;
    const historyFile = join(dir, `${sessionFileName(SESSION_ID)}.history.jsonl`);
    const stats = { saves: 0, tornTailsLeft: 0, tornTailsSeen: 0, recordsAhead: 0, appendsAhead: 0 };

    for (let kill = 1; kill <= KILLS; kill += 1) {
      const where = `seed ${seed}, kill ${kill} of ${KILLS} (replay with CRASH_SEED=${seed}), dir ${dir}`;
      const report = await runAndKill(dir, 5 + Math.floor(random() * 56));
      stats.saves += report.saved.length;
      const warningsBefore = warnings.length;

      const record = await store.loadRecord(SESSION_ID).catch((error: Error) => {
        throw new Error(`${where}: the record did not load: ${error.message}`);
      });
      const history = await store.loadHistory(SESSION_ID).catch((error: Error) => {
        throw new Error(`${where}: the history did not load: ${error.message}`);
      });
      stats.tornTailsSeen += warnings.length - warningsBefore;
      const ids = history.map((message) => message.id);
      const version = record?.state?.version ?? 0;

      // The record is the last one the child reported, or the one it was writing.
      const lastSaved = report.saved.at(-1) ?? recordVersion;
      const writing = report.saved.length > 0 ? lastSaved + 1 : report.start;
      expect([lastSaved, writing], `${where}: record version`).toContain(version);
      if (version !== lastSaved) stats.recordsAhead += 1;
      if (record?.state) {
        expect(record.state.summary, where).toBe(`summary of version ${version}`);
        expect(record.state.firstKeptMessageId, where).toBe(`m-${version}`);
        expect(ids, `${where}: firstKeptMessageId is in the history`).toContain(record.state.firstKeptMessageId);
      }

      // Every message reported appended is there, in order; at most the one being written follows.
      const reported = [...knownIds, ...report.appended.map((number) => `m-${number}`)];
      expect(ids.slice(0, reported.length), `${where}: reported messages`).toEqual(reported);
      const extra = ids.slice(reported.length);
      if (extra.length > 0) {
        const lastAppended = report.appended.at(-1);
        const appending = lastAppended === undefined ? report.start : lastAppended + 1;
        expect(extra, `${where}: unreported messages`).toEqual([`m-${appending}`]);
        stats.appendsAhead += 1;
      }

      knownIds = ids;
      recordVersion = version;
      if (random() < TORN_TAIL_SHARE) {
        const line = JSON.stringify({ id: 'torn', role: 'user', parts: [{ type: 'text', text: 'z'.repeat(5000) }] });
        await appendFile(historyFile, line.slice(0, 1 + Math.floor(random() * (line.length - 1))));
        stats.tornTailsLeft += 1;
      }
    }

    console.info(`store crash test: seed ${seed}, ${KILLS} kills,`, stats);
    expect(stats.saves, `seed ${seed}: the children made progress`).toBeGreaterThan(KILLS);
  }, 120_000);
});
