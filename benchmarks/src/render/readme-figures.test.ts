import { describe, expect, it } from 'vitest';
import type { BenchCell } from '../economy/bench-result.ts';
import { economyFigure, replaceFigures, retentionFigure } from './readme-figures.ts';

const economy = {
  columns: [
    'session',
    'run',
    'calls',
    'max context',
    'compactions',
    'input tokens',
    'input vs recorded (%)',
    'cost units',
    'cost vs recorded (%)',
  ],
  rows: [
    ['258c7280', 'Claude Code (recorded)', 152, 166759, 1, 15290519, null, 2128497, null],
    ['258c7280', '@compaction default', 152, 159993, 1, 14920065, -2.4, 1978246, -7.1],
    ['258c7280', '@compaction economy', 152, 49879, 11, 6239858, -59.2, 1242621, -41.6],
    ['ae4a77f8', 'Claude Code (recorded)', 160, 141787, 1, 16930525, null, 2353279, null],
    ['ae4a77f8', '@compaction default', 160, 137491, 1, 17500000, 3.4, 2343834, -0.4],
    ['ae4a77f8', '@compaction economy', 160, 50000, 9, 8900000, -47.4, 1600000, -29.3],
    ['short', 'Claude Code (recorded)', 4, 9000, 0, 25353, null, 18513, null],
    ['short', '@compaction default', 4, 9000, 0, 25353, 0, 18513, 0],
    ['short', '@compaction economy', 4, 9000, 0, 25353, 0, 18513, 0],
  ],
};

describe('README figures', () => {
  it("render the demo's session with the default settings and the economy range from economy.json", () => {
    expect(economyFigure(economy)).toBe(
      'replaying a real 152-call session with the default settings sends 2.4% fewer input tokens (summarization calls included) than Claude Code did, at 7.1% lower cache-aware cost; the `economy` preset (`COMPACTION_PRESETS.economy`) sends 47–59% fewer, at 29–42% lower cache-aware cost',
    );
    const worse = {
      ...economy,
      rows: economy.rows.map((row): BenchCell[] =>
        row[1] === '@compaction default' && row[0] === '258c7280'
          ? [...row.slice(0, 6), 3.4, row[7] ?? null, 1.2]
          : row,
      ),
    };
    expect(economyFigure(worse)).toContain(
      'sends 3.4% more input tokens (summarization calls included) than Claude Code did, at 1.2% higher cache-aware cost',
    );
  });

  it('render what the structured summaries keep per budget, naming shortfalls', () => {
    const columns = [
      'session',
      'summary',
      'tokens',
      'identifiers kept',
      'modified paths kept',
      'read paths kept',
      'user requests kept',
    ];
    const row = (summary: string, identifiers: string, requests = '7/7 (100%)') => [
      '258c7280',
      summary,
      1766,
      identifiers,
      '5/5 (100%)',
      '12/12 (100%)',
      requests,
    ];
    const full = {
      columns,
      rows: [
        row('@compaction structured, 4,000 budget', '78/100 (78%)'),
        row('@compaction structured, 2,000 budget', '61/100 (61%)'),
        [
          'ae4a77f8',
          '@compaction structured, 4,000 budget',
          1500,
          '83/100 (83%)',
          '2/2 (100%)',
          '4/4 (100%)',
          '3/3 (100%)',
        ],
        [
          'ae4a77f8',
          '@compaction structured, 2,000 budget',
          1400,
          '70/100 (70%)',
          '2/2 (100%)',
          '4/4 (100%)',
          '3/3 (100%)',
        ],
        row('Claude Code (recorded, reference)', '100/100 (100%)', '5/7 (71%)'),
      ],
    };
    expect(retentionFigure(full)).toBe(
      "the deterministic structured summary (no LLM) keeps every read and modified file path and every genuine user request of the span Claude Code compacted, and 78–83% of the identifiers (modules, functions, commands, paths) Claude Code's own summary names, within its 4,000-token budget (61–70% within 2,000; docs/benchmarks.md §4)",
    );
    const short = { columns, rows: [row('@compaction structured, 2,000 budget', 'n/a', '6/7 (86%)')] };
    expect(retentionFigure(short)).toBe(
      'the deterministic structured summary (no LLM) keeps 5 of 5 modified and 12 of 12 read file paths and 6 of 7 genuine user requests of the span Claude Code compacted',
    );
  });

  it('replace each rendered bullet and keep the ones whose result is missing', () => {
    const readme = [
      '## How it does',
      '<!-- figures:start (generated) -->',
      '<!-- figure:economy -->',
      '- old economy;',
      '<!-- figure:retention -->',
      '- old retention;',
      '<!-- figure:core-prepare -->',
      '- old prepare.',
      '<!-- figures:end -->',
      'after',
    ].join('\n');
    const updated = replaceFigures(readme, { economy: 'new economy' });
    expect(updated).toBe(readme.replace('- old economy;', '- new economy;'));
    expect(replaceFigures(updated, { economy: 'new economy' })).toBe(updated);
    expect(() => replaceFigures('no block', {})).toThrow(/figures:start/);
  });
});
