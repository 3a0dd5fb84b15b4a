import type { BaseMessage } from '@langchain/core/messages';

/**
 * The part of a LangChain chat model this package uses: `invoke` with a list of
 * messages. Every `BaseChatModel` (`ChatOpenAI`, `ChatAnthropic`, `fakeModel()`, …)
 * and the result of `initChatModel` fit.
 */
export type ChatModelLike = {
  invoke(
    input: BaseMessage[],
    options?: { signal?: AbortSignal; metadata?: Record<string, unknown>; tags?: string[] },
  ): Promise<BaseMessage>;
};

/** Whether a value can be used as a {@link ChatModelLike}. */
export function isChatModelLike(value: unknown): value is ChatModelLike {
  return typeof value === 'object' && value !== null && typeof (value as { invoke?: unknown }).invoke === 'function';
}
