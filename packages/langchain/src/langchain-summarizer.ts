import { type LlmSummarizerOptions, llmSummarizer, type Summarizer } from '@compaction/core';
import type { ChatModelLike } from './chat-model-like.js';
import { langchainGenerate } from './langchain-generate.js';

/** Options of {@link langchainSummarizer}: those of core's `llmSummarizer` but `generate`. */
export type LangchainSummarizerOptions = Omit<LlmSummarizerOptions, 'generate'>;

/**
 * Any LangChain chat model as a core summarizer: core's `llmSummarizer` (prompts,
 * quality gate, one retry) over {@link langchainGenerate}. When it fails, the
 * session falls back to the structured summarizer.
 *
 * @example
 * ```ts
 * compactionMiddleware({ summarizer: langchainSummarizer(new ChatAnthropic({ model: 'claude-haiku-4-5' })) });
 * ```
 */
export function langchainSummarizer(model: ChatModelLike, options: LangchainSummarizerOptions = {}): Summarizer {
  return llmSummarizer({ ...options, generate: langchainGenerate(model) });
}
