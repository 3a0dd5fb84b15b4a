import { importAssistantRecord, warnCallsWithoutUsage } from './import-assistant-record.js';
import { followPromptQueue, pushDeliveredPrompts } from './import-queued-prompts.js';
import { createImportState, type ImportState, warn } from './import-state.js';
import { importUserRecord } from './import-user-record.js';
import { readClaudeCodeLine } from './read-claude-code-line.js';
import type { ClaudeCodeImportOptions, ImportedSession } from './types.js';

/** Closes a `compact_boundary` that no summary record followed: kept, with an empty summary. */
function closeBoundaryWithoutSummary(state: ImportState): void {
  const boundary = state.pendingBoundary;
  if (!boundary) return;
  warn(state, boundary.line, 'compact_boundary without an isCompactSummary record after it');
  state.session.compactions.push({
    boundaryLine: boundary.line,
    messageIndex: boundary.messageCount,
    ...(boundary.preTokens === undefined ? {} : { preTokens: boundary.preTokens }),
    ...(boundary.trigger === undefined ? {} : { trigger: boundary.trigger }),
    summary: '',
    summarizedMessageCount: boundary.messageCount,
  });
  state.pendingBoundary = undefined;
}

/**
 * Imports a recorded Claude Code session (the CLI's JSONL transcript) as core messages,
 * with one `RecordedCall` per model call and Claude Code's own compactions. Pure: reads
 * the text it is given.
 *
 * - Only `user` and `assistant` records carry messages; `progress` (including a
 *   sub-agent's streamed progress), `file-history-snapshot` and other `system` records
 *   are skipped, except `compact_boundary`.
 * - A prompt typed while the agent worked (`queue-operation`) that Claude Code handed to
 *   the model mid-turn becomes a `user` message after the tool result it arrived with,
 *   marked `metadata.claudeCode.queued: true`; slash commands run locally and are skipped.
 * - Assistant records sharing `message.id` are merged into one assistant message whose
 *   id is that `message.id`; user and tool messages take the record's `uuid`.
 * - `isMeta` records (command caveats, injected skill text) are kept as user messages
 *   marked `metadata.claudeCode.isMeta: true`: the model saw them, so they count toward
 *   the context; a consumer may hide them. The compact summary is a user message marked
 *   `metadata.claudeCode.compactSummary: true`.
 * - `isSidechain: true` records (a sub-agent's own conversation) are skipped unless
 *   `includeSidechain`; a repeated record `uuid` is skipped as a duplicate.
 * - A tool call with no result (interrupted) is kept; a tool result with no earlier call
 *   is dropped. Malformed lines are skipped. Each of these gives a warning with its line.
 *
 * @example
 * const session = parseClaudeCodeSession(readFileSync('session.jsonl', 'utf8'));
 * session.calls.at(-1)?.contextTokens; // context size of the last model call
 */
export function parseClaudeCodeSession(text: string, options: ClaudeCodeImportOptions = {}): ImportedSession {
  const state = createImportState(options);
  let sessionId: string | undefined;
  const lines = text.split('\n');
  for (const [index, rawLine] of lines.entries()) {
    const line = index + 1;
    const content = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (content.trim() === '') continue;
    const record = readClaudeCodeLine(content);
    if ('problem' in record) {
      warn(state, line, record.problem);
      continue;
    }
    sessionId ??= record.sessionId;
    if (record.isSidechain && !options.includeSidechain) continue;
    if (record.kind === 'compact-boundary') {
      closeBoundaryWithoutSummary(state);
      const { preTokens, trigger } = record;
      state.pendingBoundary = { line, messageCount: state.session.messages.length, preTokens, trigger };
      continue;
    }
    if (record.kind === 'queue') {
      followPromptQueue(state, record);
      continue;
    }
    if (record.kind === 'other') continue;
    if (state.recordUuids.has(record.uuid)) {
      warn(state, line, `duplicate record uuid ${record.uuid} (skipped)`);
      continue;
    }
    state.recordUuids.add(record.uuid);
    if (record.kind === 'assistant') importAssistantRecord(state, record, line);
    else importUserRecord(state, record, line);
  }
  closeBoundaryWithoutSummary(state);
  pushDeliveredPrompts(state, state.session.messages.at(-1)?.id ?? 'queue');
  warnCallsWithoutUsage(state);
  state.session.warnings.sort((a, b) => a.line - b.line);
  const name = options.sessionName ?? sessionId;
  return name === undefined ? state.session : { name, ...state.session };
}
