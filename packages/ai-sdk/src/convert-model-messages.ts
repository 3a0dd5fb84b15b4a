import type { Message } from '@compaction/core';
import type { ModelMessage } from 'ai';
import { fromCoreMessage } from './from-core-message.js';
import { toCoreMessages } from './to-core-messages.js';

/**
 * `ModelMessage`s (what `generateText` takes and `prepareStep` receives) as
 * core messages, with content ids (see `toCoreMessages`). Content may be a
 * string; file data may be bytes, base64, a URL or tagged.
 */
export function modelMessagesToMessages(messages: readonly ModelMessage[]): Message[] {
  return toCoreMessages(messages);
}

/**
 * Core messages as `ModelMessage`s. What core left unchanged comes back as the
 * very objects `modelMessagesToMessages` was given.
 */
export function messagesToModelMessages(messages: readonly Message[]): ModelMessage[] {
  return messages.map(fromCoreMessage) as ModelMessage[];
}
