/**
 * Token economy on the recorded Claude Code sessions: each replayed through core with the
 * `default` and `economy` presets, beside Claude Code's own figures. Writes
 * `results/economy.json` (shape: README.md beside this file).
 *
 *   node src/economy/economy.bench.ts        # BENCH_TINY=1: short fixtures only
 */
import { COMPACTION_PRESETS, resolveSettings, triggerTokens } from '@compaction/core';
import { COST_WEIGHTS, readRecording } from '@compaction/demo';
import { type BenchCell, type BenchTarget, writeBenchResult } from './bench-result.ts';
import { type EconomyRun, type EconomySession, measureEconomy } from './measure-economy.ts';
import { isTinyRun, sessionFiles, sessionLabel } from './session-files.ts';

/** Window of the recorded model (Claude, 200K), for describing the presets' triggers. */
const RECORDED_WINDOW = 200_000;

const COLUMNS = [
  'session',
  'run',
  'calls',
  'max context',
  'compactions',
  'input tokens',
  'input vs recorded (%)',
  'cost units',
  'cost vs recorded (%)',
];

function change(ours: number, recorded: number | undefined): number | null {
  if (recorded === undefined || recorded === 0) return null;
  return Math.round((ours / recorded - 1) * 1000) / 10;
}

function row(label: string, run: EconomyRun, recorded: EconomyRun | null): BenchCell[] {
  const isRecorded = run === recorded;
  return [
    label,
    run.run,
    run.calls,
    run.maxContextTokens,
    run.compactions,
    run.inputTokens,
    isRecorded ? null : change(run.inputTokens, recorded?.inputTokens),
    run.costUnits,
    isRecorded ? null : change(run.costUnits, recorded?.costUnits),
  ];
}

function targetsOf(label: string, session: EconomySession): BenchTarget[] {
  const recorded = session.recorded;
  if (!recorded || session.recordedCompactions.length === 0) return [];
  const byPreset = new Map(session.replays.map((replay) => [replay.preset, replay.run]));
  const targets: BenchTarget[] = [];
  const defaults = byPreset.get('default');
  if (defaults) {
    targets.push({
      target: `${label}: default sends no more input tokens than the recording`,
      holds: defaults.inputTokens <= recorded.inputTokens,
      detail: `${defaults.inputTokens.toLocaleString('en-US')} vs ${recorded.inputTokens.toLocaleString('en-US')} (${change(defaults.inputTokens, recorded.inputTokens)}%)`,
    });
  }
  const economy = byPreset.get('economy');
  if (economy) {
    const input = change(economy.inputTokens, recorded.inputTokens) ?? 0;
    const cost = change(economy.costUnits, recorded.costUnits) ?? 0;
    const baseline = session.cacheModelRatio
      ? ` (on identical calls the replay's cache model alone is ${change(session.cacheModelRatio.ratio, 1)}%)`
      : '';
    targets.push(
      { target: `${label}: economy cuts input tokens by ≥ 40%`, holds: input <= -40, detail: `${input}%` },
      { target: `${label}: economy cuts cost units by ≥ 20%`, holds: cost <= -20, detail: `${cost}%${baseline}` },
    );
  }
  return targets;
}

/** `['structured', 'structured', 'prune']` → `2× structured, 1× prune`. */
function countStrategies(strategies: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const strategy of strategies) counts.set(strategy, (counts.get(strategy) ?? 0) + 1);
  return [...counts].map(([strategy, count]) => `${count}× ${strategy}`).join(', ');
}

function describePreset(name: string): string {
  const preset = COMPACTION_PRESETS[name as keyof typeof COMPACTION_PRESETS];
  const settings = resolveSettings(preset.settings, RECORDED_WINDOW);
  return (
    `${name}: trigger ${settings.trigger} (${triggerTokens(settings).toLocaleString('en-US')} tokens of a 200K window), ` +
    `keepRecentTokens ${settings.keepRecentTokens.toLocaleString('en-US')}, pruneToolOutputs ${settings.pruneToolOutputs}, ` +
    `structured summaries of ≤ ${preset.summaryMaxTokens.toLocaleString('en-US')} tokens.`
  );
}

const rows: BenchCell[][] = [];
const targets: BenchTarget[] = [];
const notes: string[] = [];
for (const file of sessionFiles()) {
  const label = sessionLabel(file);
  const session = await measureEconomy(await readRecording(file), COMPACTION_PRESETS);
  if (session.recorded) rows.push(row(label, session.recorded, session.recorded));
  for (const replay of session.replays) rows.push(row(label, replay.run, session.recorded));
  targets.push(...targetsOf(label, session));
  const compacted = session.replays
    .filter((replay) => replay.strategies.length > 0)
    .map((replay) => `${replay.preset} ${countStrategies(replay.strategies)}`);
  if (session.recordedCompactions.length > 0 || compacted.length > 0) {
    const cacheModel = session.cacheModelRatio
      ? ` On the ${session.cacheModelRatio.calls} calls where both sides sent the same context, our cost is ${change(session.cacheModelRatio.ratio, 1)}% against the recording's: that part of a cost difference is the replay's ideal prefix cache, not compaction.`
      : '';
    notes.push(
      `${label}: Claude Code compacted ${session.recordedCompactions.join(', ') || 'never'}; ours: ${compacted.join('; ') || 'never'}.${cacheModel}`,
    );
  }
  process.stderr.write(`economy: ${label} done\n`);
}
notes.unshift(
  ...Object.keys(COMPACTION_PRESETS).map(describePreset),
  'Replay: every assistant message of the recording is one model call, answered with the recorded reply; ' +
    'our context is counted with o200k and calibrated to the recording (recorded ≈ overhead + ratio × counted, fitted before its first compaction), ' +
    'so the system prompt and tool definitions Claude Code sent count on every call of ours too.',
  `Cost units: input ×${COST_WEIGHTS.input}, cache write ×${COST_WEIGHTS.cacheWrite}, cache read ×${COST_WEIGHTS.cacheRead}, output ×${COST_WEIGHTS.output}. ` +
    "Recorded: Claude Code's billed usage per call plus its summarization call (`*.compaction-agent.jsonl`). " +
    'Ours: the longest unchanged prompt prefix since the previous call is a cache read, the rest a cache write, output as recorded; ' +
    'every summary counts as an LLM call (the summarization prompt ×1, the summary ×5) though the structured summarizer wrote it. ' +
    'The first call is billed as recorded on both sides: it is the same prompt, and Claude Code read most of it from a cache its earlier sessions wrote.',
  'Input tokens include the summarization calls on both sides.',
);

const file = writeBenchResult({
  name: 'economy',
  title: 'Token economy on recorded Claude Code sessions',
  description:
    "Each recorded Claude Code session replayed through @compaction/core with the default settings and with the economy preset (COMPACTION_PRESETS), beside Claude Code's own recorded figures for the same session.",
  columns: COLUMNS,
  rows,
  notes,
  targets,
  tiny: isTinyRun(),
});
process.stderr.write(`economy: wrote ${file}\n`);
for (const target of targets)
  process.stderr.write(`  ${target.holds ? 'holds' : 'MISSED'}  ${target.target}: ${target.detail}\n`);
