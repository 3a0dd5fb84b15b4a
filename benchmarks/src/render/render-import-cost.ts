import type { ImportCostFigures } from '../import-cost/import-cost-stats.ts';
import { ms } from './markdown.ts';
import { NOT_MEASURED, type ResultHeader, rerun } from './result-files.ts';

/** `import-cost.json` as `import-cost.bench.ts` writes it. */
export type ImportCostResult = ResultHeader &
  ImportCostFigures & { samples: number; target: { ms: number; rssMb: number } };

const mb = (value: number) => `${value.toFixed(1)} MB`;

/** The section on what importing `@compaction/core` costs a process, and what its first count adds. */
export function renderImportCost(result: ImportCostResult | undefined, title = '5. Import cost'): string {
  const lines = [`## ${title}`, ''];
  if (!result) return [...lines, NOT_MEASURED].join('\n');
  const { import: cost, firstCount, target } = result;
  lines.push(
    `\`import('@compaction/core')\` of the built package in a fresh Node process: **${ms(cost.ms)}** and **+${mb(cost.rssMb)} RSS** above a bare Node process (${mb(result.bareRssMb)}); target ≤ ${target.ms} ms and ≤ ${target.rssMb} MB — **${result.meetsTarget ? 'met' : 'not met'}**. No tokenizer loads at import: the first count loads the one encoding it needs, once per process.`,
    '',
    '| what | time | RSS added |',
    '| --- | ---: | ---: |',
    `| \`import('@compaction/core')\` | ${ms(cost.ms)} | ${mb(cost.rssMb)} |`,
    `| first count, \`gptTokenizerCounter()\` (default, o200k) | ${ms(firstCount.gptTokenizer.ms)} | ${mb(firstCount.gptTokenizer.rssMb)} |`,
    `| first count, \`tiktokenCounter()\` (WASM, o200k) | ${ms(firstCount.tiktoken.ms)} | ${mb(firstCount.tiktoken.rssMb)} |`,
    '',
    `Medians of ${result.samples} child processes of each kind (bare, import, import + first count with each counter), run in turn. The package is bundled into one module per entry (\`scripts/bundle-package.mjs\`): Node's module loader has a cost per file, and unbundled, the ~120 files \`tsc\` emits added about 19 MB RSS and doubled the time (measured with this benchmark before the bundling).`,
    '',
    rerun(result.command ?? 'cd benchmarks && node src/import-cost/import-cost.bench.ts', result),
  );
  return lines.join('\n');
}
