import { isPinned } from '../messages/message-helpers.js';
import type { Message } from '../messages/types.js';

/** What {@link prunableToolCallIds} needs besides the messages. */
export type PrunableToolCallIdsOptions = {
  /** First message of the span whose outputs may be cleared. */
  startIndex: number;
  /** First message after that span (the first kept message). */
  endIndex: number;
  /** Ids whose outputs an earlier compaction already cleared. */
  alreadyPruned?: ReadonlySet<string>;
  /**
   * Tool names whose outputs are never cleared.
   * @default []
   */
  protectedTools?: readonly string[];
};

/**
 * The tool calls whose outputs the prune pass may clear: results in
 * `messages[startIndex … endIndex - 1]`, except
 *
 * - results in a pinned message (`metadata.pinned`, system messages): pinned content is
 *   never cleared;
 * - results of a tool named in `protectedTools`;
 * - ids already pruned;
 * - ids that also answer a call outside the span or in a pinned or protected result
 *   (a provider that reuses `call_0`): outputs are cleared by id, and clearing that id
 *   would clear the kept or pinned output too.
 *
 * Pure; each id appears once, in order.
 *
 * @example
 * ```ts
 * prunableToolCallIds(history, { startIndex: 0, endIndex: 40, protectedTools: ['read_plan'] });
 * ```
 */
export function prunableToolCallIds(messages: readonly Message[], options: PrunableToolCallIdsOptions): string[] {
  const protectedTools = new Set(options.protectedTools ?? []);
  const keep = new Set<string>();
  const candidates: string[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    const inSpan = index >= options.startIndex && index < options.endIndex;
    const pinned = isPinned(message);
    for (const part of message.parts) {
      if (part.type !== 'tool-result') continue;
      if (inSpan && !pinned && !protectedTools.has(part.toolName)) candidates.push(part.toolCallId);
      else if (index >= options.startIndex || pinned) keep.add(part.toolCallId);
    }
  }
  const result: string[] = [];
  const seen = new Set<string>();
  for (const id of candidates) {
    if (keep.has(id) || seen.has(id) || options.alreadyPruned?.has(id)) continue;
    seen.add(id);
    result.push(id);
  }
  return result;
}
