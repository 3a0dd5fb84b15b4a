import { convertAssistantBlock } from './convert-claude-block.js';
import { claudeCodeMetadata, type ImportState, pushMessage, warn } from './import-state.js';
import type { ClaudeCodeRecord } from './read-claude-code-line.js';

type AssistantRecord = Extract<ClaudeCodeRecord, { kind: 'assistant' }>;

/** Model name Claude Code writes on replies it made up itself (API errors, "No response requested."). */
const SYNTHETIC_MODEL = '<synthetic>';

/**
 * Adds one streamed assistant record to the reply it belongs to. Claude Code writes one
 * record per content block, all sharing `message.id`, sometimes with tool results in
 * between: the reply is one message, placed where its first record was, so every tool
 * result still follows its call. Usage comes from the last record (only it has the
 * final `output_tokens`; the input figures are equal on all of them). Synthetic replies
 * are kept as messages but are not model calls.
 */
export function importAssistantRecord(state: ImportState, record: AssistantRecord, line: number): void {
  let entry = state.assistants.get(record.messageId);
  if (!entry) {
    const message = {
      id: record.messageId,
      role: 'assistant' as const,
      parts: [],
      metadata: claudeCodeMetadata(record, { model: record.model }),
    };
    const index = pushMessage(state, message);
    entry = { message, firstLine: line, hasUsage: false };
    if (record.model !== SYNTHETIC_MODEL) {
      entry.call = {
        messageId: message.id,
        index,
        usage: { inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 },
        contextTokens: 0,
        ...(record.model === undefined ? {} : { model: record.model }),
        ...(record.timestamp === undefined ? {} : { timestamp: record.timestamp }),
      };
      state.session.calls.push(entry.call);
    }
    state.assistants.set(record.messageId, entry);
  }
  for (const block of record.content) {
    const part = convertAssistantBlock(block);
    if ('problem' in part) {
      warn(state, line, part.problem);
      continue;
    }
    entry.message.parts.push(part);
    if (part.type === 'tool-call') state.toolNames.set(part.toolCallId, part.toolName);
  }
  if (record.usage && entry.call) {
    const usage = {
      inputTokens: record.usage.input_tokens,
      cacheCreationInputTokens: record.usage.cache_creation_input_tokens,
      cacheReadInputTokens: record.usage.cache_read_input_tokens,
      outputTokens: record.usage.output_tokens,
    };
    entry.call.usage = usage;
    entry.call.contextTokens = usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
    entry.message.usage = { inputTokens: entry.call.contextTokens, outputTokens: usage.outputTokens };
    entry.hasUsage = true;
  }
}

/** Warns about every model call whose records carried no usage at all. */
export function warnCallsWithoutUsage(state: ImportState): void {
  for (const entry of state.assistants.values()) {
    if (entry.call && !entry.hasUsage) {
      warn(state, entry.firstLine, `assistant message ${entry.message.id} has no usage; its call counts 0 tokens`);
    }
  }
}
