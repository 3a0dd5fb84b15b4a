import { PROCESS_CONVERSATION_BYTES } from '@compaction/core';
import type { ScaleRun } from '../scale/scale-run.ts';
import { int, ms, table, verdict } from './markdown.ts';
import { NOT_MEASURED, type ResultHeader, rerun } from './result-files.ts';

/** `scale.json`, as `src/scale/scale.bench.ts` writes it. */
export type ScaleResult = {
  messages: number;
  counts: number[];
  targets: { medianMs: number; heapMB: number; atConversations: number; cliffRatio: number };
  runs: (ScaleRun | { adapter: string; conversations: number; error: string })[];
  tiny?: boolean;
  finishedAt?: string;
};

const COMMAND = 'cd benchmarks && node src/scale/scale.bench.ts';

/** Section 1.4: many conversations in one process, per adapter. */
export function renderScale(scale: (ScaleResult & ResultHeader) | undefined): string {
  const lines = ['### 1.4 Many conversations in one process', ''];
  if (!scale) return [...lines, NOT_MEASURED].join('\n');
  const { targets } = scale;
  lines.push(
    `Each adapter serves N conversations of ${int(scale.messages)} messages round-robin in one process, each call through its real hooks with one new ~250-token message and the provider's usage recorded (the state of earlier calls is in the store, as on a server that has been running). Median per call once every conversation was served once; the heap the adapter holds for all of them after a full GC, the framework's own histories excluded (measured apart). Each row is a process of its own. “Entries kept” is how many the process's conversation budget (\`processConversationMemory()\`, ${PROCESS_CONVERSATION_BYTES / 2 ** 20} MiB estimated) held after the last call — one a conversation (the AI SDK keeps its session and its conversion in one): with more conversations than that served in turn, every call finds its conversation evicted and rebuilds it from the framework's history and the stored record (nothing is recounted: the record holds the count).`,
    '',
  );
  const rows: string[][] = [];
  for (const run of scale.runs) {
    if ('error' in run) {
      rows.push([run.adapter, int(run.conversations), `failed: ${run.error.slice(0, 80)}`, '', '', '', '', '']);
      continue;
    }
    rows.push([
      run.adapter,
      int(run.conversations),
      ms(run.median),
      ms(run.p90),
      ms(run.firstCallMedian),
      `${run.heapMB} MB`,
      `${run.historiesMB} MB`,
      run.keptConversations === undefined ? '' : int(run.keptConversations),
    ]);
  }
  lines.push(
    table(
      [
        'adapter',
        'conversations',
        'median / call',
        'p90',
        'first call of a conversation',
        'heap (ours)',
        'histories (framework)',
        'entries kept',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  );
  for (const adapter of [...new Set(scale.runs.map((run) => run.adapter))]) {
    const runs = scale.runs.filter((run): run is ScaleRun => run.adapter === adapter && !('error' in run));
    const at = runs.find((run) => run.conversations === targets.atConversations);
    const fewest = runs.reduce<ScaleRun | undefined>(
      (min, run) => (!min || run.conversations < min.conversations ? run : min),
      undefined,
    );
    if (!at || !fewest || scale.tiny) continue;
    const cliff = at.median / fewest.median;
    lines.push(
      `- ${adapter}: ${verdict(at.median <= targets.medianMs)} ≤ ${targets.medianMs} ms per call at ${int(at.conversations)} conversations (${ms(at.median)}); ${verdict(at.heapMB <= targets.heapMB)} heap ≤ ${targets.heapMB} MB (${at.heapMB} MB); ${verdict(cliff <= targets.cliffRatio)} no cliff from ${int(fewest.conversations)} to ${int(at.conversations)} conversations (×${cliff.toFixed(2)}, ≤ ×${targets.cliffRatio}).`,
    );
  }
  lines.push('', rerun(COMMAND, scale));
  return lines.join('\n');
}
