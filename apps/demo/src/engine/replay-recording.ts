import { type CompactionSettings, type Summarizer, tiktokenCounter } from '@compaction/core';
import { CliError } from '../cli/cli-error.js';
import type { Recording } from '../recording/recording.js';
import { replayMessages } from '../recording/replay-messages.js';
import { createPromptMeter } from '../replay/prompt-meter.js';
import type { AdapterName } from './adapter-name.js';
import { buildReplayFigures } from './build-replay-figures.js';
import { recordedScale } from './recorded-scale.js';
import type { ReplayFigures } from './replay-figures.js';
import type { ReplayCall } from './replay-result.js';
import { runReplay } from './run-replay.js';
import { turnOfCalls } from './turn-of-calls.js';

/**
 * The first message after each compaction the recorded user asked for (`/compact`):
 * the replay compacts manually there, as the same user would have with us.
 */
function manualCompactionPoints(recording: Recording): Set<string> {
  const points = new Set<string>();
  for (const compaction of recording.compactions) {
    if (compaction.trigger !== 'manual') continue;
    const next = recording.messages[compaction.messageIndex + 1];
    if (next) points.add(next.id);
  }
  return points;
}

/** Options of {@link replayRecording}. */
export type ReplayRecordingOptions = {
  adapter: AdapterName;
  settings?: Partial<CompactionSettings>;
  /** Makes our summaries (metered as an LLM call would be billed). @default structuredSummarizer() */
  summarizer?: Summarizer;
  onCall?: (call: ReplayCall, total: number) => void;
};

/**
 * Replays a recording through an adapter on the replay model, calibrated to the
 * recording's own token figures, and returns the figures: recorded beside ours per call,
 * compactions and totals.
 *
 * @throws CliError when the recording has no assistant message (no model call) to replay.
 */
export async function replayRecording(recording: Recording, options: ReplayRecordingOptions): Promise<ReplayFigures> {
  const messages = replayMessages(recording.messages);
  if (!messages.some((message) => message.role === 'assistant')) {
    throw new CliError(
      `${recording.file} has no model calls to replay (${recording.messages.length} messages imported; sub-agent records are skipped)`,
    );
  }
  const meter = createPromptMeter(tiktokenCounter());
  const scale = recordedScale(recording, messages, meter);
  const settings = options.settings ?? {};
  const run = await runReplay({
    adapter: options.adapter,
    messages,
    recorded: new Map(recording.calls.map((call) => [call.messageId, call.contextTokens])),
    settings,
    ...(recording.model === undefined ? {} : { model: recording.model }),
    meter,
    scale,
    ...(options.summarizer ? { summarizer: options.summarizer } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
    manualCompactionsBefore: manualCompactionPoints(recording),
  });
  return buildReplayFigures(recording, run, {
    settings,
    ...(recording.model === undefined ? {} : { model: recording.model }),
    turns: turnOfCalls(messages),
  });
}
