import { resolveSummarizerOption, type Summarizer, type SummarizerOptionResolver } from '@compaction/core';
import { type ChatModelLike, isChatModelLike } from './chat-model-like.js';
import { checkChatModelId } from './check-chat-model-id.js';
import { langchainSummarizer } from './langchain-summarizer.js';
import { lazyChatModel } from './lazy-chat-model.js';

/**
 * What makes the summaries: a core `Summarizer`, a LangChain chat model (wrapped
 * with `langchainSummarizer`), a model id string that LangChain's `initChatModel`
 * resolves (`'openai:gpt-5-mini'`, as `summarizationMiddleware` takes it), or
 * `'structured'` (core's deterministic summary, no model).
 */
export type SummarizerOption = Summarizer | ChatModelLike | 'structured' | (string & {});

/** How the LangChain adapter reads `summarizer` (core's shared resolver, configured for LangChain). */
export const langchainSummarizerResolver: SummarizerOptionResolver<ChatModelLike> = {
  option: 'summarizer',
  accepts:
    "a LangChain chat model (e.g. new ChatOpenAI({ model: 'gpt-5-mini' })), a model id initChatModel resolves ('openai:gpt-5-mini'), 'structured', or a core Summarizer",
  isModel: isChatModelLike,
  fromModel: (model) => langchainSummarizer(model),
  fromModelId: (id) => {
    checkChatModelId(id, 'summarizer'); // at once: an id whose provider LangChain can never find
    return langchainSummarizer(lazyChatModel(id));
  },
};

/**
 * The summarizer to use: `option` when given (a model id is resolved once per
 * process, by core's resolver), else an LLM summarizer over `fallbackModel` (the
 * agent's model) when it is a chat model, else structured. Throws
 * `InvalidSettingsError` for anything else.
 *
 * @default fallbackModel undefined
 */
export function resolveSummarizer(option: SummarizerOption | undefined, fallbackModel?: unknown): Summarizer {
  return resolveSummarizerOption(option, langchainSummarizerResolver, fallbackModel);
}
