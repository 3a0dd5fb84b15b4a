import { isUserRequest } from '../messages/message-helpers.js';
import type { Message } from '../messages/types.js';
import { dedupeErrors, emptySummaryFacts, oneLine, type SummaryFacts } from './summary-facts.js';
import { isErrorOutput, toolOutputText } from './tool-output-text.js';

/**
 * The facts of a span of messages: the user's requests (see `isUserRequest`: messages core
 * inserted and injected `synthetic` text are not requests), the last request verbatim, tool calls
 * counted by name, failed tool results (each distinct failure once) and whether a later
 * result of the same tool succeeded, and the assistant's statements. File operations are
 * left empty: the summarizer takes them from the request.
 */
export function collectSummaryFacts(messages: readonly Message[]): SummaryFacts {
  const facts = emptySummaryFacts();
  const toolNames = new Map<string, string>();
  const lastSuccess = new Map<string, number>();
  const errors: { tool: string; text: string; at: number }[] = [];
  let resultIndex = 0;
  for (const message of messages) {
    if (message.metadata?.compaction) continue;
    const texts: string[] = [];
    for (const part of message.parts) {
      if (part.type === 'text' && part.text.trim()) texts.push(part.text);
      if (part.type === 'tool-call') {
        toolNames.set(part.toolCallId, part.toolName);
        facts.toolCounts.set(part.toolName, (facts.toolCounts.get(part.toolName) ?? 0) + 1);
      }
      if (part.type === 'tool-result') {
        const tool = part.toolName || toolNames.get(part.toolCallId) || 'unknown tool';
        resultIndex += 1;
        if (isErrorOutput(part)) errors.push({ tool, text: oneLine(toolOutputText(part.output)), at: resultIndex });
        else lastSuccess.set(tool, resultIndex);
      }
    }
    const text = texts.join('\n').trim();
    if (!text) continue;
    if (isUserRequest(message)) {
      facts.requests.push(oneLine(text));
      facts.lastRequest = text;
    } else if (message.role === 'assistant') {
      facts.statements.push(oneLine(text));
    }
  }
  facts.goal = facts.requests[0];
  facts.succeededTools = new Set(lastSuccess.keys());
  facts.errors = dedupeErrors(
    errors.map(({ tool, text, at }) => ({ tool, text, resolved: (lastSuccess.get(tool) ?? 0) > at })),
  );
  return facts;
}
