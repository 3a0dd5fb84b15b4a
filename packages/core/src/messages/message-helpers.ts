import type { Message, ToolCallPart, ToolResultPart } from './types.js';

/** The tool calls of a message, in order. */
export function toolCalls(message: Message): ToolCallPart[] {
  return message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/** The tool results of a message, in order. */
export function toolResults(message: Message): ToolResultPart[] {
  return message.parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
}

export function hasToolCalls(message: Message): boolean {
  return message.parts.some((part) => part.type === 'tool-call');
}

export function hasToolResults(message: Message): boolean {
  return message.parts.some((part) => part.type === 'tool-result');
}

/** The text of a message's text parts, joined by blank lines. */
export function messageText(message: Message): string {
  let text = '';
  for (const part of message.parts) {
    if (part.type !== 'text') continue;
    text = text ? `${text}\n\n${part.text}` : part.text;
  }
  return text;
}

/** Pinned messages stay verbatim in every context: system messages and `metadata.pinned === true`. */
export function isPinned(message: Message): boolean {
  return message.role === 'system' || message.metadata?.pinned === true;
}

/** A user message that starts a turn (not a tool-result carrier, not core's own summary). */
export function isTurnStart(message: Message): boolean {
  return message.role === 'user' && !hasToolResults(message);
}

/**
 * A message the user wrote: a turn start that core did not insert
 * (`metadata.compaction`) and that is not injected text (`metadata.synthetic: true`,
 * e.g. command caveats or reminders a harness adds as user messages).
 */
export function isUserRequest(message: Message): boolean {
  return isTurnStart(message) && message.metadata?.compaction === undefined && message.metadata?.synthetic !== true;
}

/** The last user request of a conversation, as text. */
export function lastUserRequest(messages: readonly Message[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (!isUserRequest(message)) continue;
    const text = messageText(message).trim();
    if (text) return text;
  }
  return undefined;
}
