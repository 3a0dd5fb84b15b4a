import type { Message } from '@compaction/core';

/**
 * The messages a replay feeds to the engine: the recording without the harness's own
 * compaction summaries (Claude Code's `isCompactSummary` message), since the engine under
 * test makes its own.
 */
export function replayMessages(messages: readonly Message[]): Message[] {
  return messages.filter((message) => {
    const claudeCode = message.metadata?.claudeCode as { compactSummary?: boolean } | undefined;
    return claudeCode?.compactSummary !== true;
  });
}
