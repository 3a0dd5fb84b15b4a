import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePrintedTotal } from './parse-printed-replay.js';
import { runCli } from './run-cli.js';

/** The rows of `demo`'s adapter table: adapter, compactions, largest context, input tokens, change, errors, calls over the trigger. */
function adapterRows(stdout: string): {
  adapter: string;
  compactions: string;
  largest: number;
  input: number;
  errors: number;
  overTrigger: number;
}[] {
  const number = (text: string) => Number(text.replaceAll(',', ''));
  return stdout
    .split('\n')
    .map((line) =>
      /^ {2}(core|ai-sdk|langchain|langchain-memory|mastra)\s+(.+?)\s+([\d,]+)\s+([\d,]+)\s+[−+][\d.]+%\s+(\d+)\s+(\d+)$/.exec(
        line,
      ),
    )
    .filter((match) => match !== null)
    .map((match) => ({
      adapter: match[1]!,
      compactions: match[2]!,
      largest: number(match[3]!),
      input: number(match[4]!),
      errors: Number(match[5]),
      overTrigger: Number(match[6]),
    }));
}

/** The turn rows of the per-turn tables `demo --detail` prints, one table per adapter. */
function turnRows(
  section: string,
): { turn: number; baselineWithout: number; baselineWith: number; peakWith: number }[] {
  const number = (text: string) => Number(text.replaceAll(',', ''));
  return section
    .split('\n')
    .map((line) => /^\s+(\d+)\s+\d+\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+[\d,]+\s+[\d,]+/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({
      turn: Number(match[1]),
      baselineWithout: number(match[2]!),
      baselineWith: number(match[3]!),
      peakWith: number(match[4]!),
    }));
}

describe('demo', () => {
  it('runs the scripted session through every adapter, replays a real session and writes a self-contained report', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'compaction-demo-')), 'report.html');
    const run = await runCli(['demo', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    const [scripted = '', replay = ''] = run.stdout.split('2. A real Claude Code session');
    // One compact table: a row per adapter, none skipped.
    const rows = adapterRows(scripted);
    expect(rows.map((row) => row.adapter)).toEqual(['core', 'ai-sdk', 'langchain', 'langchain-memory', 'mastra']);
    expect(scripted).toContain(
      'without compaction the context grows to 131,481 and the calls send 2,154,823 input tokens',
    );
    for (const row of rows) {
      // Bounded with compaction (seed 000's figures): a prune, then a structured summary; no errors, no call above 40K.
      expect(row.compactions, row.adapter).toMatch(/^prune 7, .*structured \d+/);
      expect(row.largest, row.adapter).toBeLessThan(40_000);
      expect(row.input, row.adapter).toBeLessThan(2_154_823 / 2);
      expect(row.errors, row.adapter).toBe(0);
      expect(row.overTrigger, row.adapter).toBe(0);
    }
    expect(scripted).not.toMatch(/✗|sent more than the trigger/);
    // The per-turn tables are behind --detail.
    expect(scripted).not.toContain('baseline');

    // The real session as a summary, the figures the benchmarks and the README use.
    expect(replay).toContain('(258c7280-ae70-4798-800f-63464d01a85d, 152 model calls, claude-opus-4-6)');
    expect(replay).toContain(
      'Claude Code: 15,290,519 input tokens (summaries included), largest context 166,759, 1 compaction, 2,128,497 cost units',
    );
    expect(replay).toMatch(
      /ours: {8}[\d,]+ input tokens \(−\d+\.\d%\), largest context [\d,]+ \(−\d+\.\d%\), 1 compaction/,
    );
    expect(replay).toContain('0 compaction errors, 0 calls above the trigger of 160,000');
    expect(replay).not.toContain('◂ recorded harness compacted here');
    expect(run.stdout.split('\n').length).toBeLessThan(40);
    expect(run.stdout).toContain(`Report: ${out}`);

    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/https?:|<script|<link|\ssrc=|\shref=|@import/);
    expect(html.match(/<svg [^>]*class="context-chart"/g)).toHaveLength(6);
    expect(html.match(/class="series series-ours"/g)).toHaveLength(6);
    expect(html.match(/class="series series-recorded"/g)).toHaveLength(1);
    const compactionsInTable = rows.reduce((sum, row) => sum + row.compactions.split(', ').length, 0);
    expect(html.match(/<line class="compaction-marker"/g)).toHaveLength(compactionsInTable + 1);
    expect(html.match(/<p class="status ok"/g)).toHaveLength(6);
    expect(html).not.toMatch(/class="(compaction-error|over-trigger)"/);
    expect(html.match(/<pre class="summary-text">## Goal/g)?.length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('--detail adds the per-turn tables and the per-call table with the recorded compaction', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'compaction-demo-')), 'report.html');
    const run = await runCli(['demo', '--detail', '--out', out]);
    expect(run.code).toBe(0);
    const [scripted = ''] = run.stdout.split('2. A real Claude Code session');
    const tables = scripted.split(/\n(?=\S.*, per turn \()/).slice(1);
    expect(tables).toHaveLength(5);
    for (const table of tables) {
      const rows = turnRows(table);
      expect(rows).toHaveLength(9);
      const last = rows.at(-1)!;
      // Unbounded growth without compaction, bounded with it (seed 000's table).
      expect(last.baselineWithout).toBeGreaterThan(100_000);
      expect(last.baselineWith).toBeLessThan(40_000);
      for (const row of rows) expect(row.peakWith).toBeLessThan(40_000);
      for (const [index, row] of rows.entries()) {
        if (index > 0) expect(row.baselineWithout).toBeGreaterThanOrEqual(rows[index - 1]!.baselineWithout);
      }
      expect(table).toMatch(
        /Conversation compacted: \d+ messages → summary, [\d,]+ → [\d,]+ tokens \(structured, auto/,
      );
    }
    expect(run.stdout).toContain('◂ recorded harness compacted here (auto, 167,094 tokens before)');
    expect(parsePrintedTotal(run.stdout, 'of which model calls').recorded).toBe(15_121_271);
    expect(parsePrintedTotal(run.stdout, 'input tokens').recorded).toBe(15_290_519);
    expect(parsePrintedTotal(run.stdout, 'largest context').recorded).toBe(166_759);
  }, 120_000);

  it('fails with one line when the fixtures folder is missing', async () => {
    const run = await runCli(['demo', '--fixtures', '/nonexistent/fixtures']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: fixtures folder not found: /nonexistent/fixtures; pass --fixtures <dir> with the Claude Code transcripts (fixtures/claude-code)\n',
    );
  });
});
