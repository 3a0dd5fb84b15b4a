import type { Message } from '@compaction/core';
import type { Recording } from '../recording/recording.js';
import type { PromptMeter } from '../replay/prompt-meter.js';
import { fitTokenScale, IDENTITY_SCALE, type TokenScale } from './fit-token-scale.js';

/**
 * The token scale of a recording ({@link fitTokenScale}): fitted on the calls made before
 * the harness first compacted, each paired with the counted tokens of the replayed
 * messages before it. Identity when the recording has no usage.
 */
export function recordedScale(recording: Recording, messages: readonly Message[], meter: PromptMeter): TokenScale {
  const firstCompaction = recording.compactions[0]?.messageIndex ?? Number.POSITIVE_INFINITY;
  const recordedById = new Map(
    recording.calls.filter((call) => call.index < firstCompaction).map((call) => [call.messageId, call.contextTokens]),
  );
  if (recordedById.size === 0) return IDENTITY_SCALE;
  const points: { counted: number; recorded: number }[] = [];
  let counted = 0;
  for (const message of messages) {
    const recorded = recordedById.get(message.id);
    if (message.role === 'assistant' && recorded !== undefined && recorded > 0) points.push({ counted, recorded });
    counted += meter.measure([message]).tokens;
  }
  return fitTokenScale(points);
}
