import type { PromptMeasure } from '../replay/prompt-meter.js';

/**
 * Tokens a provider would read from its prompt cache: the longest run of leading
 * messages that `current` shares, unchanged, with `previous` (the previous call's prompt).
 * The fixed overhead (system prompt, tools) is the caller's to add.
 */
export function cachedPrefixTokens(previous: PromptMeasure | undefined, current: PromptMeasure): number {
  if (!previous) return 0;
  let tokens = 0;
  const shorter = Math.min(previous.messages.length, current.messages.length);
  for (let index = 0; index < shorter; index += 1) {
    const message = current.messages[index]!;
    if (previous.messages[index]!.key !== message.key) break;
    tokens += message.tokens;
  }
  return tokens;
}
