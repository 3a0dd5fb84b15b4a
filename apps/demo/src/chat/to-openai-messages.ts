import type { Message } from '@compaction/core';
import { describeMessage } from './describe-message.js';
import type { OpenAiMessage } from './post-chat-completion.js';

/**
 * Core messages as OpenAI chat messages. The chat has no tools, so a tool call or result
 * (from a compacted or imported history) is sent as bracketed text.
 */
export function toOpenAiMessages(messages: readonly Message[]): OpenAiMessage[] {
  return messages.map((message) => ({
    role: message.role === 'tool' ? 'user' : message.role,
    content: describeMessage(message, { maxToolChars: 2000 }),
  }));
}
