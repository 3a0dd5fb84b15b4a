import type { Message } from '@compaction/core';
import type { ClaudeCodeRecord } from './read-claude-code-line.js';
import type { ClaudeCodeImportOptions, ImportedSession, RecordedCall } from './types.js';

/** An assistant reply being rebuilt from the records that share its `message.id`. */
export type AssistantEntry = { message: Message; call?: RecordedCall; firstLine: number; hasUsage: boolean };

/** A `compact_boundary` waiting for the summary record that follows it. */
export type PendingBoundary = { line: number; messageCount: number; preTokens?: number; trigger?: string };

/** A prompt typed while the agent was busy (`queue-operation` `enqueue`). */
export type QueuedPrompt = { text: string; timestamp?: string | undefined };

/** What `parseClaudeCodeSession` tracks while it reads a transcript line by line. */
export type ImportState = {
  options: ClaudeCodeImportOptions;
  session: ImportedSession;
  messageIds: Set<string>;
  recordUuids: Set<string>;
  /** Tool name of every tool call seen so far, by `toolCallId`. */
  toolNames: Map<string, string>;
  /** Assistant replies by Claude `message.id`. */
  assistants: Map<string, AssistantEntry>;
  pendingBoundary?: PendingBoundary;
  /** Prompts waiting in Claude Code's queue, oldest first. */
  queuedPrompts: QueuedPrompt[];
  /** Prompts taken from the queue mid-turn, waiting for the record they reached the model with. */
  deliveredPrompts: QueuedPrompt[];
};

/** A fresh state for one import. */
export function createImportState(options: ClaudeCodeImportOptions): ImportState {
  return {
    options,
    session: { messages: [], calls: [], compactions: [], warnings: [] },
    messageIds: new Set(),
    recordUuids: new Set(),
    toolNames: new Map(),
    assistants: new Map(),
    queuedPrompts: [],
    deliveredPrompts: [],
  };
}

/** Records a warning for a 1-based line. */
export function warn(state: ImportState, line: number, problem: string): void {
  state.session.warnings.push({ line, problem });
}

/** Appends a message, making its id unique (`id`, then `id:2`, `id:3`, …); returns its index. */
export function pushMessage(state: ImportState, message: Message): number {
  let id = message.id;
  for (let copy = 2; state.messageIds.has(id); copy += 1) id = `${message.id}:${copy}`;
  state.messageIds.add(id);
  message.id = id;
  return state.session.messages.push(message) - 1;
}

/** `metadata.claudeCode` for a message made from `record`: uuid, timestamp and the given flags. */
export function claudeCodeMetadata(
  record: ClaudeCodeRecord,
  extra: Record<string, unknown> = {},
): { claudeCode: Record<string, unknown> } {
  const claudeCode: Record<string, unknown> = { uuid: record.uuid, timestamp: record.timestamp };
  if (record.isSidechain) claudeCode.isSidechain = true;
  for (const [key, value] of Object.entries(extra)) if (value !== undefined && value !== false) claudeCode[key] = value;
  for (const key of Object.keys(claudeCode)) if (claudeCode[key] === undefined) delete claudeCode[key];
  return { claudeCode };
}
