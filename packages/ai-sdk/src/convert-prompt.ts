import type { Message } from '@compaction/core';
import type { ProviderPrompt } from './ai-sdk-types.js';
import { fromCoreMessage } from './from-core-message.js';
import { toCoreMessages } from './to-core-messages.js';

/**
 * The provider prompt a middleware sees (`params.prompt`) as core messages,
 * with content ids (see `toCoreMessages`).
 */
export function promptToMessages(prompt: ProviderPrompt): Message[] {
  return toCoreMessages(prompt);
}

/**
 * Core messages (a prepared context) as a provider prompt. What core left
 * unchanged comes back as the very objects `promptToMessages` was given, so an
 * uncompacted prompt round-trips exactly.
 */
export function messagesToPrompt(messages: readonly Message[]): ProviderPrompt {
  return messages.map(fromCoreMessage) as ProviderPrompt;
}
