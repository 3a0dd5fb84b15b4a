import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '@compaction/core';

const hooks = fileURLToPath(new URL('./register-source-hooks.mjs', import.meta.url));
const worker = fileURLToPath(new URL('./append-worker.ts', import.meta.url));

/**
 * The contract's `crashDuringAppend` for a store a child process can open:
 * `factoryModule` exports `createStore(argument)`. The child appends the
 * batches; it is killed with SIGKILL at a random moment 1–120 ms after it
 * starts writing (or when it finishes first, which the contract also accepts).
 */
export function crashDuringAppend(factoryModule: URL, argument: string) {
  return async (sessionId: string, batches: Message[][]): Promise<void> => {
    const dir = await mkdtemp(join(tmpdir(), 'compaction-crash-'));
    try {
      const file = join(dir, 'batches.json');
      await writeFile(file, JSON.stringify(batches));
      const child = spawn(
        process.execPath,
        ['--import', hooks, worker, factoryModule.href, argument, sessionId, file],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('started')) resolve();
        });
        void exited.then((code) =>
          reject(new Error(`the append worker exited (${code}) before it started: ${stderr}`)),
        );
      });
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 120));
      child.kill('SIGKILL');
      const code = await exited;
      if (code !== null && code !== 0) throw new Error(`the append worker failed (${code}): ${stderr}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
