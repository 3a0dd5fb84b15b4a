import {
  describeValue,
  InvalidSettingsError,
  type LlmSummarizerOptions,
  llmSummarizer,
  type Summarizer,
} from '@compaction/core';
import { checkSummarizerOptions } from '@compaction/core/internal';
import { type ChatModelLike, isChatModelLike } from './chat-model-like.js';
import { checkChatModelId } from './check-chat-model-id.js';
import { langchainGenerate } from './langchain-generate.js';
import { lazyChatModel } from './lazy-chat-model.js';

/** Options of {@link langchainSummarizer}: those of core's `llmSummarizer` but `generate`. */
export type LangchainSummarizerOptions = Omit<LlmSummarizerOptions, 'generate'>;

/**
 * Any LangChain chat model as a core summarizer: core's `llmSummarizer` (prompts,
 * quality gate, one retry) over {@link langchainGenerate}. When it fails, the
 * session falls back to the structured summarizer. `model` may also be a model id
 * `initChatModel` resolves (`'openai:gpt-5-mini'`, `'gpt-5-mini'`), resolved at the
 * first summary. Anything else — an id whose provider LangChain can never find, an
 * unknown option (`maxTokens`: it is `maxOutputTokens`) — is an `InvalidSettingsError` here.
 *
 * @example
 * ```ts
 * compactionMiddleware({ summarizer: langchainSummarizer(new ChatAnthropic({ model: 'claude-haiku-4-5' })) });
 * ```
 */
export function langchainSummarizer(
  model: ChatModelLike | string,
  options: LangchainSummarizerOptions = {},
): Summarizer {
  const chatModel = typeof model === 'string' ? modelFromId(model) : model;
  if (!isChatModelLike(chatModel)) {
    throw new InvalidSettingsError({
      setting: 'model',
      problem: `langchainSummarizer takes a LangChain chat model (e.g. new ChatOpenAI({ model: 'gpt-5-mini' })) or a model id initChatModel resolves ('openai:gpt-5-mini'), got ${describeValue(model)}`,
    });
  }
  checkSummarizerOptions(options, 'langchainSummarizer');
  return llmSummarizer({ ...options, generate: langchainGenerate(chatModel) });
}

function modelFromId(id: string): ChatModelLike {
  checkChatModelId(id, 'model');
  return lazyChatModel(id);
}
