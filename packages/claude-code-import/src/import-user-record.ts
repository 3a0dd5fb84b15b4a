import type { Part, ToolResultPart } from '@compaction/core';
import { convertFileBlock, toolResultOutput } from './convert-claude-block.js';
import { pushDeliveredPrompts, settleQueuedPrompt } from './import-queued-prompts.js';
import { claudeCodeMetadata, type ImportState, pushMessage, warn } from './import-state.js';
import type { ClaudeCodeRecord } from './read-claude-code-line.js';

type UserRecord = Extract<ClaudeCodeRecord, { kind: 'user' }>;

function textOf(parts: Part[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * Converts a `user` record: `tool_result` blocks become one `tool` message, text and
 * image blocks one `user` message (a record with both is split: `<uuid>:tool` then
 * `<uuid>:text`). A tool result whose call was never seen is dropped with a warning.
 * The `isCompactSummary` record closes the pending `compact_boundary`. Prompts Claude Code
 * took from its queue mid-turn follow the tool results they reached the model with.
 */
export function importUserRecord(state: ImportState, record: UserRecord, line: number): void {
  const toolResults: ToolResultPart[] = [];
  const userParts: Part[] = [];
  if (typeof record.content === 'string') userParts.push({ type: 'text', text: record.content });
  else if (record.content.length === 0) warn(state, line, 'user record has empty content (skipped)');
  for (const block of typeof record.content === 'string' ? [] : record.content) {
    if (block.type === 'tool_result') {
      const toolCallId = block.tool_use_id;
      const toolName = typeof toolCallId === 'string' ? state.toolNames.get(toolCallId) : undefined;
      if (typeof toolCallId !== 'string' || toolName === undefined) {
        warn(state, line, `tool_result for unknown tool_use id ${String(toolCallId)} (dropped)`);
        continue;
      }
      const output = toolResultOutput(block.content);
      toolResults.push({ type: 'tool-result', toolCallId, toolName, output, isError: block.is_error === true });
    } else if (block.type === 'text' && typeof block.text === 'string') {
      userParts.push({ type: 'text', text: block.text });
    } else if (block.type === 'image' || block.type === 'document') {
      userParts.push(convertFileBlock(block));
    } else {
      warn(state, line, `unsupported user content block "${String(block.type)}" (skipped)`);
    }
  }

  const split = toolResults.length > 0 && userParts.length > 0;
  if (toolResults.length > 0) {
    const id = split ? `${record.uuid}:tool` : record.uuid;
    pushMessage(state, { id, role: 'tool', parts: toolResults, metadata: claudeCodeMetadata(record) });
  }
  // A prompt taken from the queue mid-turn reached the model with this record.
  if (toolResults.length > 0 || userParts.length > 0) pushDeliveredPrompts(state, record.uuid);
  if (userParts.length === 0) return;
  if (!record.isMeta && !record.isCompactSummary) settleQueuedPrompt(state, textOf(userParts));
  const id = split ? `${record.uuid}:text` : record.uuid;
  const metadata: Record<string, unknown> = claudeCodeMetadata(record, {
    isMeta: record.isMeta,
    compactSummary: record.isCompactSummary,
  });
  // Injected text (command caveats, skill text) and Claude Code's own summary are not user requests.
  if (record.isMeta || record.isCompactSummary) metadata.synthetic = true;
  const index = pushMessage(state, { id, role: 'user', parts: userParts, metadata });
  if (!record.isCompactSummary) return;
  const boundary = state.pendingBoundary;
  if (!boundary) {
    warn(state, line, 'compact summary without a compact_boundary record before it');
    return;
  }
  state.session.compactions.push({
    boundaryLine: boundary.line,
    messageIndex: index,
    ...(boundary.preTokens === undefined ? {} : { preTokens: boundary.preTokens }),
    ...(boundary.trigger === undefined ? {} : { trigger: boundary.trigger }),
    summary: textOf(userParts),
    summarizedMessageCount: boundary.messageCount,
  });
  state.pendingBoundary = undefined;
}
