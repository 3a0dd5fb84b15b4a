/**
 * The process the crash test kills. It appends one message and saves a new
 * record, forever, and reports each step on stdout once it has returned:
 * `start V` (the first version it writes), `appended m-V`, `saved V`.
 * Every fourth message is larger (8 KiB), so the writes vary in size.
 *
 * Usage: node --import ./resolve-ts.mjs crash-child.ts <dir> <sessionId>
 */
import { COMPACTION_STATE_SCHEMA } from '../../src/compaction/compaction-state.js';
import { fileStore } from '../../src/store/file-store.js';

const [dir, sessionId] = process.argv.slice(2);
if (dir === undefined || sessionId === undefined) throw new Error('usage: crash-child.ts <dir> <sessionId>');

const LARGE_TEXT_BYTES = 8 * 1024;
const store = fileStore(dir);
const history = await store.loadHistory(sessionId);
const record = await store.loadRecord(sessionId);
const lastAppended = Number(history.at(-1)?.id.slice('m-'.length) ?? 0);
let version = Math.max(record?.state?.version ?? 0, lastAppended) + 1;
process.stdout.write(`start ${version}\n`);

for (;;) {
  const id = `m-${version}`;
  const text = version % 4 === 0 ? `${id} `.padEnd(LARGE_TEXT_BYTES, 'x') : `message ${id}`;
  await store.appendHistory(sessionId, [{ id, role: 'user', parts: [{ type: 'text', text }] }]);
  process.stdout.write(`appended ${id}\n`);
  await store.saveRecord(sessionId, {
    state: {
      schema: COMPACTION_STATE_SCHEMA,
      version,
      summary: `summary of version ${version}`,
      firstKeptMessageId: id,
      summarizedRange: { fromIndex: 0, toIndex: version - 1, messageCount: version },
      prunedToolCallIds: [],
      fileOps: { read: [], modified: [] },
      tokensBefore: version * 10,
      tokensAfter: version,
      strategy: 'structured',
      createdAt: new Date().toISOString(),
    },
    usage: { inputTokens: version, contextMessageCount: 1, historyLength: version, stateVersion: version },
  });
  process.stdout.write(`saved ${version}\n`);
  version += 1;
}
