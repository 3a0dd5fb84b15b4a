import { int, ms, table } from './markdown.ts';
import { NOT_MEASURED, type ResultHeader, rerun } from './result-files.ts';

/** `stores.json` as `stores.bench.ts` writes it. */
export type StoresResult = ResultHeader & {
  cases: { store: string; mode: 'warm' | 'cold'; median: number; p90: number; calls: number; messages: number }[];
};

/** The section on what each store costs per call, side by side. */
export function renderStores(result: StoresResult | undefined, title = '7. Per-call overhead of each store'): string {
  const lines = [`## ${title}`, ''];
  if (!result) return [...lines, NOT_MEASURED].join('\n');
  const stores = [...new Set(result.cases.map((row) => row.store))];
  const cell = (store: string, mode: 'warm' | 'cold') => {
    const row = result.cases.find((item) => item.store === store && item.mode === mode);
    return row ? `${ms(row.median)} (p90 ${ms(row.p90)})` : '—';
  };
  const first = result.cases[0];
  lines.push(
    `One call as a chat server makes it per turn — \`append\` the user's message, \`prepare()\` the context, \`recordUsage\` (a compare-and-set record save) — on a conversation of ${int(first?.messages ?? 0)} messages, with a window so large that nothing compacts: the store's own cost. **Warm**: one long-lived session. **Cold**: a new session per call, as a serverless function has, which loads the conversation first. Median of ${int(first?.calls ?? 0)} calls (p90 in brackets); PostgreSQL and Redis on loopback.`,
    '',
    table(
      ['store', 'warm session', 'cold session (loads 2,000 messages)'],
      stores.map((store) => [`\`${store}\``, cell(store, 'warm'), cell(store, 'cold')]),
      ['l', 'r', 'r'],
    ),
    '',
    rerun(result.command ?? 'cd benchmarks && node src/stores/stores.bench.ts', result),
  );
  return lines.join('\n');
}
