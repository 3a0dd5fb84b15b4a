import type { Message, ToolResultPart } from '@compaction/core';

/** One recorded model call: the assistant message it produced and the results of its tool calls. */
export type ReplayStep = {
  message: Message;
  /** The recorded result of each of the message's tool calls, by recorded `toolCallId`. */
  results: ReadonlyMap<string, { output: string; isError: boolean }>;
};

/**
 * The model calls of a recorded session, in order: every assistant message that says or
 * calls something, with the results its tool calls got (from the tool messages after it).
 * Calls without a recorded result get one that says so, so a replayed tool never hangs.
 */
export function replaySteps(messages: readonly Message[]): ReplayStep[] {
  const results = new Map<string, { output: string; isError: boolean }>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-result') results.set(part.toolCallId, resultOf(part));
    }
  }
  const steps: ReplayStep[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const parts = message.parts.filter(
      (part) => (part.type === 'text' && part.text.trim() !== '') || part.type === 'tool-call',
    );
    if (parts.length === 0) continue;
    const own = new Map<string, { output: string; isError: boolean }>();
    for (const part of parts) {
      if (part.type !== 'tool-call') continue;
      own.set(part.toolCallId, results.get(part.toolCallId) ?? { output: '(no result was recorded)', isError: true });
    }
    steps.push({ message: { ...message, parts }, results: own });
  }
  return steps;
}

function resultOf(part: ToolResultPart): { output: string; isError: boolean } {
  const output = typeof part.output === 'string' ? part.output : (JSON.stringify(part.output) ?? '');
  return { output, isError: part.isError === true };
}
