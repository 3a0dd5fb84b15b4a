// One "server process" of the multi-process tests: it opens a store (factory module and
// argument from argv) and, for each `run <sessionId> <name> <turns>` line on stdin, plays
// that many turns on the conversation — append the user's request, append the answer,
// prepare — then prints `done <sessionId> <JSON: the state versions it saw, its compactions>`.
import { createInterface } from 'node:readline';
import { createCompactionSession, type SessionStore } from '@compaction/core';
import { RACE_SETTINGS, raceSummarizer, requestText } from './conversation-race-settings.js';

const [moduleUrl, argument] = process.argv.slice(2) as [string, string];
const { createStore } = (await import(moduleUrl)) as { createStore: (argument: string) => Promise<SessionStore> };
const store = await createStore(argument);
process.stdout.write('ready\n');

for await (const line of createInterface({ input: process.stdin })) {
  const [command, sessionId, name, turns] = line.split(' ') as [string, string, string, string];
  if (command !== 'run') continue;
  let compactions = 0;
  const session = createCompactionSession({
    sessionId,
    store,
    settings: RACE_SETTINGS,
    summarizer: raceSummarizer(),
    onEvent: (event) => {
      if (event.type === 'compaction:end') compactions += 1;
    },
  });
  const versions: number[] = [];
  for (let turn = 0; turn < Number(turns); turn++) {
    await session.append({
      id: `${name}-u${turn}`,
      role: 'user',
      parts: [{ type: 'text', text: requestText(name, turn) }],
    });
    await session.append({
      id: `${name}-a${turn}`,
      role: 'assistant',
      parts: [{ type: 'text', text: 'w '.repeat(400) }],
    });
    await session.prepare();
    versions.push((await session.state())?.version ?? 0);
  }
  process.stdout.write(`done ${sessionId} ${JSON.stringify({ versions, compactions })}\n`);
}
// stdin closed: done. Exit even if the store's connection (a Redis client, a pool) would keep the process alive.
process.exit(0);
