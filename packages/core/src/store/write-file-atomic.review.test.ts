import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStore } from './file-store.js';
import { sessionFileName } from './session-file-name.js';
import { isTempFileOf } from './write-file-atomic.js';

// Review of fileStore's temp-file names (issue 16, session 8), session 9: the suffix is a random
// start counted up per JavaScript realm (Math.random), not crypto. Threads of one process share
// its pid; here they write one file at once and must each finish, leave one whole text and no
// temp file. The skipped block is a regression the names allow where every realm draws the same
// start (`node --random-seed`): see its reason.

const MODULE = fileURLToPath(new URL('./write-file-atomic.ts', import.meta.url));

/** Node strips TypeScript itself (22.18+, 24): the worker threads load write-file-atomic.ts as it is. */
const stripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);

/**
 * A process whose `threads` worker threads each write `file` `writes` times with writeFileAtomic,
 * all at once; prints the failures as JSON.
 */
const THREADS = `
const { Worker } = require('node:worker_threads');
const [module, file, threads, writes] = process.argv.slice(1);
const code = \`
const { workerData, parentPort } = require('node:worker_threads');
import(workerData.module).then(async ({ writeFileAtomic }) => {
  const failures = [];
  await Promise.all(Array.from({ length: workerData.writes }, (_, i) =>
    writeFileAtomic(workerData.file, 'thread ' + workerData.id + ' write ' + i + '\\\\n').catch((error) => failures.push(error.code ?? String(error)))));
  parentPort.postMessage(failures);
});\`;
Promise.all(Array.from({ length: Number(threads) }, (_, id) => new Promise((resolve, reject) => {
  const worker = new Worker(code, { eval: true, workerData: { module, file, writes: Number(writes), id } });
  worker.on('message', resolve);
  worker.on('error', reject);
}))).then((failures) => process.stdout.write(JSON.stringify(failures.flat())));
`;

function runThreads(file: string, threads: number, writes: number, nodeFlags: string[] = []): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const args = [...nodeFlags, '-e', THREADS, MODULE, file, String(threads), String(writes)];
    const child = spawn(process.execPath, args, { stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exited ${code}: ${err}`))));
  });
}

describe('writeFileAtomic from threads of one process (review)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compaction-atomic-review-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.runIf(stripsTypes)(
    'threads (one pid) writing one file at once each finish, and leave one whole text, no temp file',
    async () => {
      const file = join(dir, 'threads.state.json');
      const failures = await runThreads(file, 8, 40);
      expect(failures).toEqual([]);
      expect(readFileSync(file, 'utf8')).toMatch(/^thread \d+ write \d+\n$/);
      expect(readdirSync(dir).filter((name) => isTempFileOf(file, join(dir, name)))).toEqual([]);
    },
    60_000,
  );

  it("clear() deletes the session's leftover temp files and nobody else's (a session whose name extends another's)", async () => {
    const folder = join(dir, 'clear');
    const store = fileStore(folder);
    const other = 'a.state.json.1';
    await store.saveRecord('a', { calibration: { m: 1 } });
    await store.saveRecord(other, { calibration: { m: 2 } });
    const mine = `${sessionFileName('a')}.state.json`;
    const theirs = `${sessionFileName(other)}.state.json`;
    // Leftovers of crashed saves beside both records (one of another pid), and a file of the user's.
    const leftovers = [`${mine}.4242.0badc0de.tmp`, `${mine}.1.ffffffff.tmp`];
    const kept = [`${theirs}.4242.0badc0de.tmp`, `${mine}.notes.tmp`, `${mine}.4242.0badc0de.tmp.bak`];
    for (const name of [...leftovers, ...kept]) writeFileSync(join(folder, name), 'leftover');
    await store.clear('a');
    const after = readdirSync(folder);
    for (const name of leftovers) expect(after).not.toContain(name);
    for (const name of kept) expect(after).toContain(name);
    expect(await store.loadRecord(other)).toMatchObject({ calibration: { m: 2 } });
  });
});

// Realms that draw the same Math.random sequence — every thread of a process started with
// `--random-seed` — drew the same temp names in lockstep, and past 16 taken names in a row a save
// failed with EEXIST (session 9, V). The start now mixes in the thread id and the clock
// (`tempSuffixStart`); this was a skipped repro and must pass.
describe('writeFileAtomic where every realm draws the same Math.random (node --random-seed)', () => {
  it.runIf(stripsTypes)(
    '24 threads writing one file at once each finish, for several seeds',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'compaction-atomic-seeded-'));
      try {
        for (const seed of [7, 123456]) {
          const file = join(dir, `seeded-${seed}.state.json`);
          const failures = await runThreads(file, 24, 40, [`--random-seed=${seed}`]);
          expect(failures).toEqual([]);
          expect(readFileSync(file, 'utf8')).toMatch(/^thread \d+ write \d+\n$/);
          expect(readdirSync(dir).filter((name) => isTempFileOf(file, join(dir, name)))).toEqual([]);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
