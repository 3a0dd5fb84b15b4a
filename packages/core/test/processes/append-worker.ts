// A child process that appends batches to one session, one append each, and reports
// on stdout when it starts; the parent kills it mid-write (see crash-during-append.ts).
// argv: <factory module URL> <factory argument> <session id> <batches JSON file>
import { readFileSync } from 'node:fs';
import type { Message, SessionStore } from '@compaction/core';

const [moduleUrl, argument, sessionId, batchesFile] = process.argv.slice(2) as [string, string, string, string];
const { createStore } = (await import(moduleUrl)) as { createStore: (argument: string) => Promise<SessionStore> };
const store = await createStore(argument);
const batches = JSON.parse(readFileSync(batchesFile, 'utf8')) as Message[][];
process.stdout.write('started\n');
for (const batch of batches) await store.appendHistory(sessionId, batch);
process.stdout.write('finished\n');
process.exit(0);
