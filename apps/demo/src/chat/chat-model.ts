import type { Message, MessageUsage } from '@compaction/core';

/** What `chat` talks to: an endpoint's model, or the offline replay. */
export type ChatModel = {
  /** Said when the chat starts, e.g. `gpt-4o-mini at http://localhost:8080/v1`. */
  readonly description: string;
  /** Answers the context (exactly what the model sees). */
  reply(
    context: readonly Message[],
    options?: { signal?: AbortSignal },
  ): Promise<{ text: string; usage?: MessageUsage }>;
};
