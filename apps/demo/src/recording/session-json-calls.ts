import type { RecordedCall } from '@compaction/claude-code-import';
import type { Message } from '@compaction/core';

/**
 * The recorded calls of a `compaction-session` file: one per assistant message whose
 * `usage.inputTokens` says what the original agent sent (none for messages without it).
 */
export function sessionJsonCalls(messages: readonly Message[]): RecordedCall[] {
  return messages.flatMap((message, index): RecordedCall[] => {
    const inputTokens = message.usage?.inputTokens;
    if (message.role !== 'assistant' || inputTokens === undefined) return [];
    return [
      {
        messageId: message.id,
        index,
        usage: {
          inputTokens,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: 0,
          outputTokens: message.usage?.outputTokens ?? 0,
        },
        contextTokens: inputTokens,
      },
    ];
  });
}
