import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePrintedTotal } from './parse-printed-replay.js';
import { runCli } from './run-cli.js';

/** The turn rows of one adapter's table in `demo`'s first part. */
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
    const sections = scripted.split(/\n(?=\S.* — trigger )/).slice(1);
    expect(sections.map((section) => section.split(' — ')[0])).toEqual([
      'core CompactionSession (reference)',
      'AI SDK middleware (@compaction/ai-sdk)',
      'LangChain agent middleware (@compaction/langchain)',
      'LangChain memory, CompactingChatMessageHistory (@compaction/langchain)',
      'Mastra processor (@compaction/mastra)',
    ]);
    for (const section of sections) {
      const rows = turnRows(section);
      expect(rows).toHaveLength(9);
      const last = rows.at(-1)!;
      // Unbounded growth without compaction, bounded with it (seed 000's table).
      expect(last.baselineWithout).toBeGreaterThan(100_000);
      expect(last.baselineWith).toBeLessThan(40_000);
      for (const [index, row] of rows.entries()) {
        if (index > 0) expect(row.baselineWithout).toBeGreaterThanOrEqual(rows[index - 1]!.baselineWithout);
      }
      expect(section).toMatch(
        /Conversation compacted: \d+ messages → summary, [\d,]+ → [\d,]+ tokens \(structured, auto/,
      );
    }

    expect(replay).toContain('through core — 152 model calls, model claude-opus-4-6');
    expect(parsePrintedTotal(replay, 'total input tokens').recorded).toBe(15_121_271);
    expect(parsePrintedTotal(replay, 'largest context').recorded).toBe(166_759);
    expect(replay).toContain('◂ recorded harness compacted here (auto, 167,094 tokens before)');
    expect(run.stdout).toContain(`Report: ${out}`);

    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/https?:|<script|<link|\ssrc=|\shref=|@import/);
    expect(html.match(/<svg [^>]*class="context-chart"/g)).toHaveLength(6);
    expect(html.match(/class="series series-ours"/g)).toHaveLength(6);
    expect(html.match(/class="series series-recorded"/g)).toHaveLength(1);
    const printedCompactions = (run.stdout.match(/Conversation compacted: /g) ?? []).length;
    expect(html.match(/<line class="compaction-marker"/g)).toHaveLength(printedCompactions);
    expect(html.match(/<pre class="summary-text">## Goal/g)?.length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('fails with one line when the fixtures folder is missing', async () => {
    const run = await runCli(['demo', '--fixtures', '/nonexistent/fixtures']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: fixtures folder not found: /nonexistent/fixtures; pass --fixtures <dir> with the Claude Code transcripts (fixtures/claude-code)\n',
    );
  });
});
