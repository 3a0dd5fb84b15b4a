/**
 * The call that switches branch after a stretch of calls far below the trigger (issue 16,
 * session 9): the switch counts that stretch from the old branch to learn its ratio. A rewind
 * drops the stretch (no later call counts it: the count's whole cost shows); a regenerate keeps
 * it (the new branch's first call finds it counted). History of 10,002 synthetic messages, a
 * 50M-token window (so even a 10,000-message stretch is far below), five sessions a case, median.
 *
 *   node src/probes/branch-switch.ts [core-dist-folder]   (from benchmarks/, after a build)
 *
 * The optional folder is another build of `@compaction/core` (its `index.js`), for an A/B.
 */

import { performance } from 'node:perf_hooks';
import { appendedMessage, syntheticHistory } from '@compaction/bench-kit/synthetic-history';
import type { CompactionSession, Message } from '@compaction/core';

type Core = { createCompactionSession(options: object): CompactionSession };
const core: Core = process.argv[2] ? await import(`${process.argv[2]}/index.js`) : await import('@compaction/core');
const full = syntheticHistory(10_002);

/** One session: an exact call over the history before the stretch, the stretch in calls far below, then the timed switch. */
async function switchAfter(stretch: number, kind: 'rewind' | 'regenerate'): Promise<number> {
  const session = core.createCompactionSession({ sessionId: 's', settings: { contextWindow: 50_000_000 } });
  const first = full.length - stretch;
  let prepared = await session.prepare({ messages: full.slice(0, first) });
  let reported = Math.round(prepared.tokens * 1.2);
  await session.recordUsage({ inputTokens: reported });
  const step = Math.max(1, Math.ceil(stretch / 50));
  for (let length = first + step; ; length = Math.min(full.length, length + step)) {
    prepared = await session.prepare({ messages: full.slice(0, length) });
    reported += step * 300;
    await session.recordUsage({ inputTokens: reported });
    if (length === full.length) break;
  }
  const branch: Message[] =
    kind === 'rewind'
      ? [...full.slice(0, first), appendedMessage(900_000)]
      : [...full.slice(0, -1), appendedMessage(900_001)];
  const start = performance.now();
  await session.prepare({ messages: branch });
  return performance.now() - start;
}

for (const [stretch, kind] of [
  [10_000, 'rewind'],
  [10_000, 'regenerate'],
  [200, 'rewind'],
  [200, 'regenerate'],
  [20, 'rewind'],
] as const) {
  const times: number[] = [];
  for (let run = 0; run < 5; run += 1) times.push(await switchAfter(stretch, kind));
  const sorted = times.slice().sort((a, b) => a - b);
  console.log(
    `stretch ${stretch} ${kind}: median ${sorted[2]!.toFixed(1)} ms  [${times.map((t) => t.toFixed(1)).join(', ')}]`,
  );
}
