import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { DEFAULT_REPORT_FILE, DEMO_SESSION_FILE } from '../cli/app-paths.js';
import { CliError } from '../cli/cli-error.js';
import type { CliIo } from '../cli/cli-io.js';
import { formatCompaction } from '../cli/format-compaction.js';
import { formatReplayHeader, formatReplayTable, formatReplayTotals } from '../cli/format-replay-table.js';
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
 * `demo`: (1) the scripted coding session through core and each adapter, per turn without
 * and with compaction; (2) a real Claude Code session replayed beside ours with totals
 * and cost units; (3) the HTML report. Offline and non-interactive.
 */
export async function demoCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs('demo', args, {
    fixtures: { type: 'string' },
    session: { type: 'string', default: DEMO_SESSION_FILE },
    out: { type: 'string', default: DEFAULT_REPORT_FILE },
  });
  const fixturesDir = resolveFixturesDir(values.fixtures);
  const sessionFile = isAbsolute(values.session) ? values.session : join(fixturesDir, values.session);
  if (!existsSync(sessionFile)) throw new CliError(`recorded session not found: ${sessionFile}; pass --session <file>`);
  const write = (lines: string[]): void => {
    if (lines.length > 0) io.stdout.write(`${lines.join('\n')}\n`);
  };
  const sections: ReportSection[] = [];

  write(['1. A scripted long coding session (seed 000: files read early, context growing each turn)', '']);
  const scripted = scriptedRecording();
  for (const adapter of ADAPTER_NAMES) {
    if (!isAdapterAvailable(adapter)) {
      write([`${ADAPTER_TITLES[adapter]}: skipped, the adapter is not available yet`, '']);
      continue;
    }
    const figures = await replayRecording(scripted, { adapter, settings: SCRIPTED_SETTINGS });
    write([
      `${ADAPTER_TITLES[adapter]} — trigger ${figures.settings.triggerTokens.toLocaleString('en-US')}, keep ${figures.settings.keepRecentTokens.toLocaleString('en-US')}`,
      ...formatTurnTable(figures),
      ...figures.compactions.map(
        (compaction) => `  before call ${compaction.beforeCall}: ${formatCompaction(compaction)}`,
      ),
      '',
    ]);
    sections.push({ id: `scripted-${adapter}`, title: `Scripted session through ${ADAPTER_TITLES[adapter]}`, figures });
  }

  write(['2. A real Claude Code session replayed through the engine (core)', '']);
  const recording = await readRecording(sessionFile);
  write(formatImportWarnings(sessionFile, recording.warnings));
  const progress = createProgressBar(io.stderr, 'replaying');
  const figures = await replayRecording(recording, {
    adapter: 'core',
    onCall: (call, total) => progress.update(call.call, total),
  });
  progress.finish();
  write([...formatReplayHeader(figures), '', ...formatReplayTable(figures), '', ...formatReplayTotals(figures), '']);
  sections.push({
    id: 'claude-code',
    title: `Claude Code session ${recording.name ?? sessionFile}`,
    figures,
    recordedLabel: 'Claude Code (recorded)',
  });

  const path = await writeReport(values.out, 'Compaction demo', sections);
  write(['3. HTML report', `Report: ${path}`]);
}
