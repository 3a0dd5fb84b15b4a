import type { PromptMessage, ProviderPrompt } from '../ai-sdk-types.js';

/** The prompt `wrapLanguageModel` hands a middleware: new message and part objects on every call, the values inside shared. */
export function resent(prompt: ProviderPrompt): ProviderPrompt {
  return prompt.map((message) =>
    typeof message.content === 'string'
      ? { ...message }
      : ({ ...message, content: message.content.map((part) => ({ ...part })) } as PromptMessage),
  );
}

/** A deep copy with new objects everywhere (bytes and URLs too), as a prompt rebuilt from storage has. */
export function deepCopy<T>(value: T): T {
  if (value instanceof URL) return new URL(value.href) as T;
  if (value instanceof Uint8Array) return new Uint8Array(value) as T;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepCopy(item)])) as T;
  }
  return value;
}
