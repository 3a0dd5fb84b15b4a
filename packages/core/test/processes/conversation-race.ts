import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createCompactionSession, type SessionStore } from '@compaction/core';
import { RACE_SETTINGS, requestText } from './conversation-race-settings.js';

const hooks = fileURLToPath(new URL('./register-source-hooks.mjs', import.meta.url));
const worker = fileURLToPath(new URL('./conversation-worker.ts', import.meta.url));

/** What one race left behind; every list empty means nothing was lost. */
export type RaceOutcome = {
  /** Messages stored more than once. */
  duplicated: string[];
  /** Messages a worker appended that the history lacks. */
  missing: string[];
  /** User requests neither kept verbatim in the context nor in its summary. */
  lost: string[];
  /** Workers that saw the compaction version go down. */
  versionWentBack: string[];
  /** The final compaction version. */
  version: number;
  /** Compactions the workers saved: each must be a new version, none saved over another. */
  compactions: number;
};

type Worker = { child: ChildProcess; lines: AsyncIterator<string>; stderr: () => string };

/**
 * Worker processes (`conversation-worker.ts`) over one store, kept for several
 * races: `race(sessionId)` has every worker play `turns` turns on that one
 * conversation at the same time, then checks what the store holds.
 */
export async function startConversationRace(options: {
  /** Module exporting `createStore(argument)`, opened in each worker. */
  factoryModule: URL;
  argument: string;
  /** The same store, opened in this process to check the outcome. */
  store: SessionStore;
  workers: number;
  turns: number;
}) {
  const names = Array.from({ length: options.workers }, (_, index) => String.fromCharCode(65 + index));
  const workers: Worker[] = names.map(() => {
    const child = spawn(process.execPath, ['--import', hooks, worker, options.factoryModule.href, options.argument], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
    return { child, lines, stderr: () => stderr };
  });
  const next = async (entry: Worker, name: string): Promise<string> => {
    const line = await entry.lines.next();
    if (line.done) throw new Error(`worker ${name} exited: ${entry.stderr()}`);
    return line.value;
  };
  await Promise.all(workers.map((entry, index) => next(entry, names[index] as string)));

  async function race(sessionId: string): Promise<RaceOutcome> {
    for (const [index, entry] of workers.entries()) {
      entry.child.stdin?.write(`run ${sessionId} ${names[index]} ${options.turns}\n`);
    }
    const seen = await Promise.all(
      workers.map(async (entry, index) => {
        const line = await next(entry, names[index] as string);
        return JSON.parse(line.split(' ').slice(2).join(' ')) as { versions: number[]; compactions: number };
      }),
    );
    const session = createCompactionSession({ sessionId, store: options.store, settings: RACE_SETTINGS });
    const history = await session.history();
    const ids = history.map((message) => message.id);
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    const expected = names.flatMap((name) =>
      Array.from({ length: options.turns }, (_, turn) => [`${name}-u${turn}`, `${name}-a${turn}`]).flat(),
    );
    const context = JSON.stringify(await session.context());
    const version = (await session.state())?.version ?? 0;
    return {
      duplicated: [...counts].filter(([, count]) => count > 1).map(([id]) => id),
      missing: expected.filter((id) => !counts.has(id)),
      lost: names.flatMap((name) =>
        Array.from({ length: options.turns }, (_, turn) => requestText(name, turn)).filter(
          (text) => !context.includes(text),
        ),
      ),
      versionWentBack: names.filter((_, index) => {
        const versions = seen[index]?.versions ?? [];
        return (
          versions.some((value, at) => at > 0 && value < (versions[at - 1] ?? 0)) || Math.max(0, ...versions) > version
        );
      }),
      version,
      compactions: seen.reduce((sum, worker) => sum + worker.compactions, 0),
    };
  }

  async function stop(): Promise<void> {
    await Promise.all(
      workers.map(
        (entry) =>
          new Promise<void>((resolve) => {
            entry.child.once('exit', () => resolve());
            entry.child.stdin?.end();
          }),
      ),
    );
  }

  return { race, stop };
}
