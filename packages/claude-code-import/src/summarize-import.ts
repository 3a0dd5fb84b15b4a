import type { ImportedSession } from './types.js';

/** Headline figures of an imported session, for demos and benchmarks. */
export type ImportSummary = {
  /** Number of messages. */
  messages: number;
  /** Number of model calls. */
  calls: number;
  /** Number of tool-call parts over all messages. */
  toolCalls: number;
  /** Largest context of any call. */
  maxContextTokens: number;
  /** Sum of `contextTokens` over all calls: every input token billed, cached or not. */
  totalInputTokens: number;
  totalOutputTokens: number;
  /** Number of Claude Code's own compactions. */
  compactions: number;
};

/**
 * Counts an imported session: messages, calls, tool calls, the largest context and the
 * input and output tokens over all calls.
 *
 * @example
 * summarizeImport(parseClaudeCodeSession(text)).maxContextTokens; // 166759
 */
export function summarizeImport(session: ImportedSession): ImportSummary {
  let toolCalls = 0;
  for (const message of session.messages) {
    for (const part of message.parts) if (part.type === 'tool-call') toolCalls += 1;
  }
  let maxContextTokens = 0;
  let totalInputTokens = 0;
  let totalOutputTokens = 0;
  for (const call of session.calls) {
    maxContextTokens = Math.max(maxContextTokens, call.contextTokens);
    totalInputTokens += call.contextTokens;
    totalOutputTokens += call.usage.outputTokens;
  }
  return {
    messages: session.messages.length,
    calls: session.calls.length,
    toolCalls,
    maxContextTokens,
    totalInputTokens,
    totalOutputTokens,
    compactions: session.compactions.length,
  };
}
