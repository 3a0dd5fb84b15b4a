import type { CompactionContextData, CompactionData } from './compaction-data.js';

/** A UI message as far as {@link latestCompactionData} reads it. */
type MessageWithParts = { parts: readonly { type: string; data?: unknown }[] };

/**
 * The last `data-compaction` and `data-compaction-context` parts among the
 * messages (each its own latest), e.g. for a page that has only useChat's
 * messages. Messages without `parts` are skipped.
 */
export function latestCompactionData(messages: readonly MessageWithParts[]): {
  compaction: CompactionData | undefined;
  context: CompactionContextData | undefined;
} {
  let compaction: CompactionData | undefined;
  let context: CompactionContextData | undefined;
  for (let index = messages.length - 1; index >= 0 && (!compaction || !context); index -= 1) {
    const parts = messages[index]?.parts ?? [];
    for (let at = parts.length - 1; at >= 0; at -= 1) {
      const part = parts[at]!;
      if (!compaction && part.type === 'data-compaction') compaction = part.data as CompactionData;
      if (!context && part.type === 'data-compaction-context') context = part.data as CompactionContextData;
    }
  }
  return { compaction, context };
}
