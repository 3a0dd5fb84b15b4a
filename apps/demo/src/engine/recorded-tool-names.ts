import type { Message } from '@compaction/core';

/** Every tool name the conversation's assistant messages call, sorted. */
export function recordedToolNames(messages: readonly Message[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-call') names.add(part.toolName);
  }
  return [...names].sort();
}
