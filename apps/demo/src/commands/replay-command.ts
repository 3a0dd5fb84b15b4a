import { resolve } from 'node:path';
import { DEFAULT_REPORT_FILE } from '../cli/app-paths.js';
import { CliError } from '../cli/cli-error.js';
import type { CliIo } from '../cli/cli-io.js';
import { formatReplayHeader, formatReplayTable, formatReplayTotals } from '../cli/format-replay-table.js';
import { parseCommandArgs } from '../cli/parse-command-args.js';
import { createProgressBar } from '../cli/progress-bar.js';
import { SETTINGS_FLAGS, settingsFromFlags } from '../cli/settings-from-flags.js';
import { ADAPTER_NAMES, isAdapterName } from '../engine/adapter-name.js';
import { isAdapterAvailable } from '../engine/driver-for.js';
import { replayRecording } from '../engine/replay-recording.js';
import { formatImportWarnings } from '../recording/format-import-warnings.js';
import { readRecording } from '../recording/read-recording.js';
import { writeReport } from '../report/write-report.js';

/** `replay <file>`: replays any recording, prints the per-call table (or `--json`) and writes the report. */
export async function replayCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommandArgs('replay', args, {
    adapter: { type: 'string', default: 'core' },
    ...SETTINGS_FLAGS,
    json: { type: 'boolean', default: false },
    out: { type: 'string' },
    'no-report': { type: 'boolean', default: false },
  });
  const [file, ...extra] = positionals;
  if (file === undefined) throw new CliError('replay needs a session file: compaction-demo replay <file>');
  if (extra.length > 0)
    throw new CliError(`replay takes one file, got ${positionals.length}: ${positionals.join(' ')}`);
  const adapter = values.adapter;
  if (!isAdapterName(adapter)) {
    throw new CliError(`--adapter must be one of ${ADAPTER_NAMES.join(', ')}, got "${adapter}"`);
  }
  if (!isAdapterAvailable(adapter)) {
    throw new CliError(
      `the ${adapter} adapter is not available yet (its package does not export it); use --adapter core`,
    );
  }
  const settings = settingsFromFlags(values);
  const recording = await readRecording(resolve(file));
  for (const line of formatImportWarnings(file, recording.warnings)) io.stderr.write(`${line}\n`);
  const progress = createProgressBar(io.stderr, 'replaying');
  const figures = await replayRecording(recording, {
    adapter,
    settings,
    onCall: (call, total) => progress.update(call.call, total),
  });
  progress.finish();
  const reportPath = values['no-report']
    ? undefined
    : await writeReport(values.out ?? DEFAULT_REPORT_FILE, `Replay of ${recording.name ?? file}`, [
        { id: 'replay', title: `${file} through ${adapter}`, figures, recordedLabel: 'recorded' },
      ]);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    if (reportPath) io.stderr.write(`Report: ${reportPath}\n`);
    return;
  }
  const lines = [...formatReplayHeader(figures), '', ...formatReplayTable(figures), '', ...formatReplayTotals(figures)];
  if (reportPath) lines.push('', `Report: ${reportPath}`);
  io.stdout.write(`${lines.join('\n')}\n`);
}
