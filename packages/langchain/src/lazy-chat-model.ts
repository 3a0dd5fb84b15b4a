import type { BaseMessage } from '@langchain/core/messages';
import { initChatModel } from 'langchain';
import type { ChatModelLike } from './chat-model-like.js';

/** How a model id becomes a chat model: LangChain's `initChatModel` unless a test gives its own. */
export type InitChatModel = (id: string) => Promise<ChatModelLike>;

/**
 * A chat model named by id (`'openai:gpt-5-mini'`, `'claude-haiku-4-5'`), resolved
 * the way LangChain's own `summarizationMiddleware` resolves its `model` string:
 * with `initChatModel`, which imports the provider's integration package. The
 * resolution starts at once and is awaited by the first call; a failure (unknown
 * provider, integration not installed) is that call's error, so the summary falls
 * back to the structured one and the error is in the compaction's `fallbacks`.
 *
 * @param init - resolves the id.
 * @default init initChatModel (from `langchain`)
 */
export function lazyChatModel(
  id: string,
  init: InitChatModel = (model) => initChatModel(model),
): ChatModelLike & { model: string } {
  const resolving = init(id);
  resolving.catch(() => undefined); // reported by the first call, never as an unhandled rejection
  return {
    model: id.includes(':') ? id.slice(id.indexOf(':') + 1) : id,
    async invoke(input: BaseMessage[], options) {
      return (await resolving).invoke(input, options);
    },
  };
}
