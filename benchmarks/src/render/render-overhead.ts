import type { Stats } from '@compaction/bench-kit/measure';
import { int, ms, table, times, verdict, versus } from './markdown.ts';
import { NOT_MEASURED, type ResultHeader, rerun } from './result-files.ts';

type CaseCell = { stats: Stats; messagesAtEnd: number; strategy?: string; samplesPlanned: number } | { error: string };

/** `overhead.json` as `overhead.bench.ts` writes it. */
export type OverheadResult = ResultHeader & {
  sizes: number[];
  histories: { messages: number; tokens: number; tokensPerMessage: number }[];
  targets: {
    coreMedianMs: number;
    adapterMedianMs: number;
    atMessages: number;
    tokenLimiterRatio: number;
    referenceMediansMs: Record<string, Record<string, number>>;
  };
  cases: {
    id: string;
    label: string;
    kind: string;
    scenario: string;
    baseline?: string;
    note: string;
    results: Record<string, CaseCell>;
  }[];
};

/** `core-prepare.json` as `packages/core/bench/prepare.bench.ts` writes it. */
export type CorePrepareResult = ResultHeader & {
  targetMs: number;
  encoderInitMs: number;
  /** Name of the `TokenCounter` the session counted with. */
  counter: string;
  sizes: {
    messages: number;
    tokens: number;
    tokensPerMessage: number;
    appendedTokens: number;
    rows: Record<
      | 'countOneMessage'
      | 'prepareNoNewMessage'
      | 'prepareOneNewMessage'
      | 'prepareMessagesOneNew'
      | 'prepareWithUsage'
      | 'recordUsage'
      | 'coldCount'
      | 'coldPrepare',
      Stats
    >;
  }[];
};

/** A history size counts as "flat" from 2,000 to 10,000 messages when the median grows by at most this factor. */
const FLAT = 1.5;

/**
 * Issue #16, at the largest history: what our hook adds to the first model call of a new
 * run on an existing thread (LangChain through a checkpointer, Mastra), and the first call
 * over a stored conversation after a restart.
 */
const LARGEST_SIZE_TARGETS: readonly { ids: readonly string[]; limitMs: number }[] = [
  {
    ids: ['langchain-new-run', 'langchain-new-run-interleaved', 'mastra-first-step', 'mastra-first-step-recalled'],
    limitMs: 2,
  },
  { ids: ['core-restart', 'core-restart-sqlite', 'core-restart-process', 'core-restart-process-sqlite'], limitMs: 50 },
];

const statsOf = (cell: CaseCell | undefined): Stats | undefined => (cell && 'stats' in cell ? cell.stats : undefined);
const cellText = (cell: CaseCell | undefined): string => {
  if (!cell) return '—';
  if ('error' in cell) return 'failed (see below)';
  return `${ms(cell.stats.median)} · p90 ${ms(cell.stats.p90)}`;
};

/** Section 1: the engine's own `prepare()` benchmark, then every hook side by side. */
export function renderOverhead(core: CorePrepareResult | undefined, overhead: OverheadResult | undefined): string {
  const parts = ['## 1. Per-call overhead', ''];
  parts.push(
    'Before every model call each integration runs its hook. What matters is what that costs when nothing needs compacting — nearly every call — and, once in a while, what the call that compacts costs.',
    '',
  );
  parts.push(...renderCore(core), '');
  parts.push(...renderSideBySide(overhead, core));
  return parts.join('\n');
}

function renderCore(core: CorePrepareResult | undefined): string[] {
  const lines = ['### 1.1 The engine: `CompactionSession.prepare()`', ''];
  if (!core) return [...lines, NOT_MEASURED];
  const [small, large] = [core.sizes[0], core.sizes.at(-1)];
  lines.push(
    `A session holding a synthetic history (${core.sizes.map((size) => `${int(size.messages)} messages ≈ ${int(size.tokens)} tokens`).join('; ')}; ~${small?.tokensPerMessage ?? '?'} tokens a message, mixed text, tool calls and long tool outputs, built from the recorded sessions' text), no compaction due. Each call appends one new ~${small?.appendedTokens ?? 250}-token message, then prepares: the incremental path. tinybench, warm-up first; median and p90 per call. counted with \`${core.counter}\` (the session's default counter); its encoder loads once per process: ${ms(core.encoderInitMs)}.`,
    '',
  );
  const rows: [string, keyof CorePrepareResult['sizes'][number]['rows']][] = [
    ['`append` + `prepare()`, one new message', 'prepareOneNewMessage'],
    ['… of which: counting the new message', 'countOneMessage'],
    ['`prepare()`, nothing new', 'prepareNoNewMessage'],
    ['`prepare({ messages })` with one new message (the adapters’ path)', 'prepareMessagesOneNew'],
    ['`append` + `prepare()`, one new message, provider usage reported after each call', 'prepareWithUsage'],
    ['… `recordUsage()` after the call (where the exact count then happens)', 'recordUsage'],
    ['counting the whole history cold (one-off)', 'coldCount'],
    ['first `prepare()` of a new session over it (one-off)', 'coldPrepare'],
  ];
  lines.push(
    table(
      ['call', ...core.sizes.map((size) => `${int(size.messages)} messages`)],
      rows.map(([label, key]) => [
        label,
        ...core.sizes.map((size) => `${ms(size.rows[key].median)} · p90 ${ms(size.rows[key].p90)}`),
      ]),
    ),
    '',
  );
  if (small && large) {
    const perCall = small.rows.prepareOneNewMessage.median;
    const counting = small.rows.countOneMessage.median;
    const engine = small.rows.prepareNoNewMessage.median;
    const growth = large.rows.prepareOneNewMessage.median / perCall;
    const engineGrowth = large.rows.prepareNoNewMessage.median / engine;
    lines.push(
      `- Target ≤ ${ms(core.targetMs)} median per call at ${int(small.messages)} messages: ${verdict(perCall <= core.targetMs)} — ${ms(perCall)} with one new message, of which counting that message (${core.counter}) is ${ms(counting)} (${Math.round((counting / perCall) * 100)}%); with nothing new to count, ${ms(engine)}.`,
      `- No growth to ${int(large.messages)} messages: ${verdict(growth <= FLAT)} with one new message (${ms(perCall)} → ${ms(large.rows.prepareOneNewMessage.median)}, ${times(growth)}); with nothing new ${ms(engine)} → ${ms(large.rows.prepareNoNewMessage.median)} (${times(engineGrowth)}).`,
      ...(small.rows.prepareWithUsage && large.rows.prepareWithUsage
        ? [
            `- With provider usage reported after each call (every adapter records it), a call far below the trigger is cleared by a strict upper bound and counts nothing before the model call: ${verdict(small.rows.prepareWithUsage.median <= core.targetMs)} ${ms(small.rows.prepareWithUsage.median)} at ${int(small.messages)} messages, ${ms(large.rows.prepareWithUsage.median)} at ${int(large.messages)} (${times(large.rows.prepareWithUsage.median / small.rows.prepareWithUsage.median)}). The exact count of the new message moves to \`recordUsage()\`, after the model answered: ${ms(small.rows.recordUsage.median)}.`,
          ]
        : []),
      `- Counting a history cold is the one-off price of a session that starts without counts: ${ms(small.rows.coldCount.median)} at ${int(small.messages)} messages, ${ms(large.rows.coldCount.median)} at ${int(large.messages)}.`,
      '',
    );
  }
  lines.push(rerun(core.command ?? 'pnpm --filter @compaction/core bench', core));
  return lines;
}

function renderSideBySide(overhead: OverheadResult | undefined, core: CorePrepareResult | undefined): string[] {
  const lines = ['### 1.2 Every hook side by side, nothing to compact', ''];
  if (!overhead) return [...lines, NOT_MEASURED, '', '### 1.3 When compaction is needed', '', NOT_MEASURED];
  const sizes = overhead.histories.map((history) => String(history.messages));
  const byId = new Map(overhead.cases.map((entry) => [entry.id, entry]));
  const median = (id: string, size: string) => statsOf(byId.get(id)?.results[size])?.median;
  const sizeHeads = overhead.histories.map((history) => `${int(history.messages)} messages`);
  lines.push(
    `The same synthetic histories for everyone (${overhead.histories.map((history) => `${int(history.messages)} messages ≈ ${int(history.tokens)} tokens`).join('; ')}), converted to each framework's own messages. Each call first gets one new ~250-token message, so the history grows by one per call (a column names the size at the start). Our adapters use the structured summarizer and a window large enough that nothing compacts; peers run at the versions above, through their public APIs. Each case runs in a process of its own (one after the other, in one run), so none is measured in a heap another filled. Median · p90 per call.`,
    '',
  );
  const kindLabel: Record<string, string> = {
    ours: 'ours',
    variant: 'ours, variant',
    peer: 'peer',
    reference: 'reference',
  };
  const perCall = overhead.cases.filter((entry) => entry.scenario === 'per-call');
  const order = ['ours', 'variant', 'peer', 'reference'];
  perCall.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  lines.push(
    table(
      ['hook', 'whose', ...sizeHeads],
      perCall.map((entry) => [
        entry.label,
        kindLabel[entry.kind] ?? entry.kind,
        ...sizes.map((size) => cellText(entry.results[size])),
      ]),
      ['l', 'l'],
    ),
    '',
  );
  lines.push('What each row times:', '');
  for (const entry of perCall) lines.push(`- ${entry.label}: ${entry.note}.`);
  lines.push('', '**Ours against the peers** (peer median ÷ our median; “slower” means the peer is cheaper):', '');
  const compared = overhead.cases.filter(
    (entry) => entry.baseline && entry.scenario === 'per-call' && entry.kind !== 'variant',
  );
  lines.push(comparisonTable(compared, byId, sizes, sizeHeads), '');

  lines.push('**Targets** (issue “Benchmarks side by side”):', '');
  const at = String(
    overhead.histories.find((history) => Math.abs(history.messages - overhead.targets.atMessages) < 10)?.messages ??
      overhead.targets.atMessages,
  );
  const largest = sizes.at(-1)!;
  const target = (id: string, limit: number) => {
    const value = median(id, at);
    const large = median(id, largest);
    if (value === undefined) return `- ${byId.get(id)?.label ?? id}: not measured.`;
    const growth = large === undefined ? Number.NaN : large / value;
    return `- ${byId.get(id)!.label} ≤ ${ms(limit)} median at ${int(Number(at))} messages: ${verdict(value <= limit)} (${ms(value)}); flat to ${int(Number(largest))}: ${verdict(growth <= FLAT)} (${ms(large)}, ${times(growth)}).`;
  };
  lines.push(target('core', overhead.targets.coreMedianMs));
  for (const id of ['ai-sdk', 'langchain', 'langchain-history', 'mastra', 'mastra-first-step']) {
    if (byId.has(id)) lines.push(target(id, overhead.targets.adapterMedianMs));
  }
  for (const { ids, limitMs } of LARGEST_SIZE_TARGETS) {
    for (const id of ids) {
      const value = median(id, largest);
      if (value === undefined) continue;
      lines.push(
        `- ${byId.get(id)!.label} ≤ ${ms(limitMs)} median at ${int(Number(largest))} messages: ${verdict(value <= limitMs)} (${ms(value)}).`,
      );
    }
  }
  const ratios = (peer: string, ours: string) =>
    sizes.map((size) => (median(peer, size) ?? Number.NaN) / (median(ours, size) ?? Number.NaN));
  const limiter = ratios('mastra-token-limiter', 'mastra');
  lines.push(
    `- ≥ ${overhead.targets.tokenLimiterRatio}× faster than Mastra's TokenLimiterProcessor at every size (our processor's step): ${verdict(limiter.every((ratio) => ratio >= overhead.targets.tokenLimiterRatio))} (${limiter.map(times).join(', ')}).`,
  );
  const check = ratios('langchain-summarization-check', 'langchain');
  lines.push(
    `- Faster than LangChain's untriggered summarization check at every size (our middleware): ${verdict(check.every((ratio) => ratio > 1))} (${check.map((ratio) => versus(ratio, 1)).join(', ')}).`,
  );
  const references = Object.entries(overhead.targets.referenceMediansMs).map(([id, figures]) => {
    const measured = Object.entries(figures)
      .map(([size, expected]) => {
        const got = sizes.find((candidate) => Math.abs(Number(candidate) - Number(size)) < 10);
        return `${int(Number(size))}: ${ms(expected)} there, ${ms(got ? median(id, got) : undefined)} here`;
      })
      .join('; ');
    return `${byId.get(id)?.label ?? id} (${measured})`;
  });
  lines.push(`- For scale, the issue's reference medians against this run: ${references.join('; ')}.`);
  if (core) {
    const cold = core.sizes.find((size) => Math.abs(size.messages - Number(at)) < 10)?.rows.coldCount.median;
    if (cold !== undefined)
      lines.push(`- For scale, counting the whole ${int(Number(at))}-message history cold takes ${ms(cold)} (§1.1).`);
  }
  lines.push('', ...renderCompaction(overhead, byId, sizes, sizeHeads), '', ...failures(overhead));
  lines.push(rerun(overhead.command ?? 'cd benchmarks && node src/overhead/overhead.bench.ts', overhead));
  return lines;
}

function renderCompaction(
  overhead: OverheadResult,
  byId: Map<string, OverheadResult['cases'][number]>,
  sizes: string[],
  sizeHeads: string[],
): string[] {
  const lines = ['### 1.3 When compaction is needed', ''];
  const rows = overhead.cases.filter((entry) => entry.scenario !== 'per-call');
  if (rows.length === 0) return [...lines, NOT_MEASURED];
  lines.push(
    'Our integrations compact once, with the structured summarizer (no LLM; tool-output pruning off, so the call summarizes), and then send summary + recent messages; the peers trim again on every call. The one-off rows time the call that compacts, on a warm session just under the trigger that gets one more message.',
    '',
  );
  const group: Record<string, string> = {
    compaction: 'one-off: the call that compacts',
    'after-compaction': 'per call, once compacted',
    trimming: 'peer: trims on every call',
  };
  const order = ['compaction', 'after-compaction', 'trimming'];
  rows.sort((a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario));
  lines.push(
    table(
      ['call', 'what', ...sizeHeads, 'core strategy'],
      rows.map((entry) => {
        const strategies = [
          ...new Set(
            sizes.flatMap((size) => {
              const cell = entry.results[size];
              return cell && 'strategy' in cell && cell.strategy ? [cell.strategy] : [];
            }),
          ),
        ];
        return [
          entry.label,
          group[entry.scenario] ?? entry.scenario,
          ...sizes.map((size) => cellText(entry.results[size])),
          strategies.join(', ') || '—',
        ];
      }),
      ['l', 'l', ...sizes.map(() => 'r' as const), 'l'],
    ),
    '',
  );
  const compared = rows.filter((entry) => entry.baseline);
  if (compared.length > 0) {
    lines.push('**Peers trimming on every call against our per-call cost once compacted:**', '');
    lines.push(comparisonTable(compared, byId, sizes, sizeHeads));
  }
  return lines;
}

function comparisonTable(
  compared: OverheadResult['cases'],
  byId: Map<string, OverheadResult['cases'][number]>,
  sizes: string[],
  sizeHeads: string[],
): string {
  if (compared.length === 0) return '_No peer measured._';
  return table(
    ['theirs', 'against ours', ...sizeHeads],
    compared.map((entry) => {
      const ours = byId.get(entry.baseline!);
      return [
        entry.label,
        ours?.label ?? entry.baseline!,
        ...sizes.map((size) => {
          const peer = statsOf(entry.results[size])?.median;
          const our = statsOf(ours?.results[size])?.median;
          return peer === undefined || our === undefined ? '—' : versus(peer, our);
        }),
      ];
    }),
    ['l', 'l'],
  );
}

function failures(overhead: OverheadResult): string[] {
  const failed = overhead.cases.flatMap((entry) =>
    Object.entries(entry.results).flatMap(([size, cell]) =>
      'error' in cell ? [`- ${entry.label} at ${int(Number(size))} messages failed: ${cell.error}`] : [],
    ),
  );
  return failed.length > 0 ? ['**Failed cases:**', '', ...failed, ''] : [];
}
