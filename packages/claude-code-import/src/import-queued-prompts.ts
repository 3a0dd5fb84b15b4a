import type { Message } from '@compaction/core';
import { type ImportState, pushMessage } from './import-state.js';
import type { ClaudeCodeRecord } from './read-claude-code-line.js';

type QueueRecord = Extract<ClaudeCodeRecord, { kind: 'queue' }>;

/** Claude Code's note that a background task ended: written out as a `user` record when delivered. */
const TASK_NOTIFICATION = /^\s*<task-notification>/;

/** A slash command (`/mcp`, `/model opus`): Claude Code runs it itself, the model never sees it. */
const SLASH_COMMAND = /^\/[\w:-]+(?:\s|$)/;

/**
 * Follows Claude Code's prompt queue. A prompt typed while the agent works is recorded as
 * `queue-operation` `enqueue`; when Claude Code hands it to the model in the middle of a
 * turn (with the next tool result) it records `remove` and writes no `user` record for it,
 * so the prompt would otherwise be missing from the conversation. A queued prompt that
 * waits for the turn to end is written later as an ordinary `user` record instead; that
 * record is imported as usual and the queue entry is dropped.
 */
export function followPromptQueue(state: ImportState, record: QueueRecord): void {
  if (record.operation === 'enqueue') {
    if (record.content !== undefined && !SLASH_COMMAND.test(record.content.trim())) {
      state.queuedPrompts.push({ text: record.content, timestamp: record.timestamp });
    }
    return;
  }
  if (record.operation === 'remove') {
    // The record does not say which entry left; a typed prompt goes before a task
    // notification, which Claude Code writes out as a `user` record of its own.
    const typed = state.queuedPrompts.findIndex((prompt) => !TASK_NOTIFICATION.test(prompt.text));
    const [prompt] = state.queuedPrompts.splice(typed === -1 ? 0 : typed, 1);
    if (prompt && typed !== -1) state.deliveredPrompts.push(prompt);
    return;
  }
  // `popAll` takes the queue back into the input box: nothing of it reached the model.
  if (record.operation === 'popAll') state.queuedPrompts.length = 0;
}

/** Drops a queued prompt that Claude Code wrote out as the `user` record with this text. */
export function settleQueuedPrompt(state: ImportState, text: string): void {
  const index = state.queuedPrompts.findIndex((prompt) => prompt.text === text);
  if (index !== -1) state.queuedPrompts.splice(index, 1);
}

/**
 * Appends the prompts handed to the model mid-turn as `user` messages, marked
 * `metadata.claudeCode.queued: true`, with ids after the record they arrived with.
 */
export function pushDeliveredPrompts(state: ImportState, afterId: string): void {
  for (const prompt of state.deliveredPrompts.splice(0)) {
    const claudeCode: Record<string, unknown> = { queued: true };
    if (prompt.timestamp !== undefined) claudeCode.timestamp = prompt.timestamp;
    const message: Message = {
      id: `${afterId}:queued`,
      role: 'user',
      parts: [{ type: 'text', text: prompt.text }],
      metadata: { claudeCode },
    };
    pushMessage(state, message);
  }
}
