/**
 * The child of the `core-restart-process` cases: a Node process that opens the store a
 * previous process left in a folder, makes a new session and times its first `prepare()` +
 * `recordUsage()` — the work the in-process restart case times (`firstCallAfterRestart`), here
 * with nothing warm: no compiled code, a fresh heap. Prints `{ "ms": … }`.
 *
 * Usage: `node restart-in-new-process.ts <file|sqlite> <folder> <expected message count>`.
 */
import { closeRestartStore, firstCallAfterRestart, openRestartStore, restartSession } from './restart-work.ts';

const [kind, dir, expected] = process.argv.slice(2);
if ((kind !== 'file' && kind !== 'sqlite') || !dir || !expected) {
  throw new Error('usage: node restart-in-new-process.ts <file|sqlite> <folder> <expected message count>');
}
const store = openRestartStore(kind, dir);
const session = restartSession(store);
const started = performance.now();
await firstCallAfterRestart(session, Number(expected));
const ms = performance.now() - started;
closeRestartStore(store);
process.stdout.write(`${JSON.stringify({ ms })}\n`);
