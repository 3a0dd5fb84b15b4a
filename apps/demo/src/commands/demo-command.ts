import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { DEFAULT_REPORT_FILE, DEMO_SESSION_FILE } from '../cli/app-paths.js';
import { CliError } from '../cli/cli-error.js';
import type { CliIo } from '../cli/cli-io.js';
import { type AdapterRun, formatAdapterTable } from '../cli/format-adapter-table.js';
import { formatCompaction } from '../cli/format-compaction.js';
import { formatProblems } from '../cli/format-problems.js';
import { formatReplaySummary } from '../cli/format-replay-summary.js';
import { formatReplayHeader, formatReplayTable, formatReplayTotals } from '../cli/format-replay-table.js';
import { formatTokens } from '../cli/format-tokens.js';
import { formatTurnTable } from '../cli/format-turn-table.js';
import { parseCommandArgs } from '../cli/parse-command-args.js';
import { createProgressBar } from '../cli/progress-bar.js';
import { resolveFixturesDir } from '../cli/resolve-fixtures-dir.js';
import { ADAPTER_NAMES } from '../engine/adapter-name.js';
import { isAdapterAvailable } from '../engine/driver-for.js';
import { replayRecording } from '../engine/replay-recording.js';
import { formatImportWarnings } from '../recording/format-import-warnings.js';
import { readRecording } from '../recording/read-recording.js';
import type { ReportSection } from '../report/render-report.js';
import { writeReport } from '../report/write-report.js';
import { scriptedRecording } from '../scripted/scripted-recording.js';
import { SCRIPTED_SETTINGS } from '../scripted/scripted-session.js';

const ADAPTER_TITLES = {
  core: 'core CompactionSession (reference)',
  'ai-sdk': 'AI SDK middleware (@compaction/ai-sdk)',
  langchain: 'LangChain agent middleware (@compaction/langchain)',
  'langchain-memory': 'LangChain memory, CompactingChatMessageHistory (@compaction/langchain)',
  mastra: 'Mastra processor (@compaction/mastra)',
} as const;

/**
 * `demo`: (1) the scripted coding session through core and each adapter, one row per
 * adapter, every compaction error and call above the trigger below it; (2) a real Claude
 * Code session replayed through core, as a summary; (3) the HTML report with the rest.
 * `--detail` adds the per-turn tables of (1) and the per-call table of (2). Offline and
 * non-interactive.
 */
export async function demoCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs('demo', args, {
    fixtures: { type: 'string' },
    session: { type: 'string', default: DEMO_SESSION_FILE },
    out: { type: 'string', default: DEFAULT_REPORT_FILE },
    detail: { type: 'boolean', default: false },
  });
  const fixturesDir = resolveFixturesDir(values.fixtures);
  const sessionFile = isAbsolute(values.session) ? values.session : join(fixturesDir, values.session);
  if (!existsSync(sessionFile)) throw new CliError(`recorded session not found: ${sessionFile}; pass --session <file>`);
  const write = (lines: string[]): void => {
    if (lines.length > 0) io.stdout.write(`${lines.join('\n')}\n`);
  };
  const sections: ReportSection[] = [];

  const scripted = scriptedRecording();
  const runs: AdapterRun[] = [];
  const skipped: string[] = [];
  for (const adapter of ADAPTER_NAMES) {
    if (!isAdapterAvailable(adapter)) {
      skipped.push(adapter);
      continue;
    }
    const figures = await replayRecording(scripted, { adapter, settings: SCRIPTED_SETTINGS });
    runs.push({ adapter, figures });
    sections.push({ id: `scripted-${adapter}`, title: `Scripted session through ${ADAPTER_TITLES[adapter]}`, figures });
  }
  const reference = runs[0]!.figures;
  const fullHistory = reference.calls.reduce((sum, call) => sum + call.uncompacted, 0);
  const largestFull = Math.max(...reference.calls.map((call) => call.uncompacted));
  write([
    `1. A scripted coding session: ${reference.calls.length} model calls in 9 turns, through core and every adapter`,
    `   window ${formatTokens(reference.settings.contextWindow)}, trigger ${formatTokens(reference.settings.triggerTokens)}, keep ${formatTokens(reference.settings.keepRecentTokens)} recent tokens; without compaction the context grows to ${formatTokens(largestFull)} and the calls send ${formatTokens(fullHistory)} input tokens`,
    '',
    ...formatAdapterTable(runs),
    ...runs.flatMap((run) => formatProblems(run.figures, `${run.adapter}: `)),
    ...skipped.map((adapter) => `  ${adapter}: skipped, the adapter is not available yet`),
    '',
  ]);
  if (values.detail) {
    for (const { adapter, figures } of runs) {
      write([
        `${ADAPTER_TITLES[adapter]}, per turn (the context of the turn's first call, its largest, and the input of all its calls)`,
        ...formatTurnTable(figures),
        ...figures.compactions.map(
          (compaction) => `  before call ${compaction.beforeCall}: ${formatCompaction(compaction)}`,
        ),
        '',
      ]);
    }
  }

  const recording = await readRecording(sessionFile);
  write(formatImportWarnings(sessionFile, recording.warnings));
  const progress = createProgressBar(io.stderr, 'replaying');
  const figures = await replayRecording(recording, {
    adapter: 'core',
    onCall: (call, total) => progress.update(call.call, total),
  });
  progress.finish();
  write([
    `2. A real Claude Code session (${recording.name ?? sessionFile}, ${figures.calls.length} model calls${figures.model ? `, ${figures.model}` : ''}) replayed through core with the default settings (trigger ${formatTokens(figures.settings.triggerTokens)})`,
    ...formatReplaySummary(figures, 'Claude Code'),
    ...formatProblems(figures),
    ...(values.detail
      ? ['', ...formatReplayHeader(figures), '', ...formatReplayTable(figures), '', ...formatReplayTotals(figures)]
      : ['  (--detail prints every call and the totals)']),
    '',
  ]);
  sections.push({
    id: 'claude-code',
    title: `Claude Code session ${recording.name ?? sessionFile}`,
    figures,
    recordedLabel: 'Claude Code (recorded)',
  });

  const path = await writeReport(values.out, 'Compaction demo', sections);
  write([
    `3. Report: ${path}`,
    '   per call the context sent with and without compaction, every compaction with its summary, every error',
  ]);
}
