import type { CompactionState, Message } from '@compaction/core';
import { describeMessage } from './describe-message.js';

/** The marker `/history` shows where the model's view starts after a compaction. */
export function compactionBoundary(state: CompactionState): string {
  return `──── compaction v${state.version} (${state.strategy}): the messages above are summarized; the model sees the summary and what follows ────`;
}

/** `/history`: the full display history, with the compaction boundary marked. */
export function formatHistory(history: readonly Message[], state: CompactionState | undefined): string[] {
  const lines: string[] = [];
  for (const message of history) {
    if (state && message.id === state.firstKeptMessageId) lines.push(compactionBoundary(state));
    lines.push(`[${message.role}] ${describeMessage(message)}`);
  }
  return lines.length > 0 ? lines : ['(the history is empty)'];
}

/** `/context`: exactly the messages the model sees, in full. */
export function formatContext(context: readonly Message[]): string[] {
  if (context.length === 0) return ['(the context is empty)'];
  return context.map(
    (message) => `[${message.role}] ${describeMessage(message, { maxToolChars: Number.POSITIVE_INFINITY })}`,
  );
}
