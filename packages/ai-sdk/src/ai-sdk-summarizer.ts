import { type LlmSummarizerOptions, llmSummarizer, type Summarizer } from '@compaction/core';
import { aiSdkGenerate } from './ai-sdk-generate.js';
import type { AiSdkModel } from './as-language-model.js';

/** Options of {@link aiSdkSummarizer}: core's `llmSummarizer` options without `generate`. */
export type AiSdkSummarizerOptions = Omit<LlmSummarizerOptions, 'generate'>;

/**
 * Core's LLM summarizer (structured checkpoint prompts, quality gate, one
 * corrective retry) writing with an AI SDK model.
 *
 * @example
 * ```ts
 * compactionMiddleware({ summarizer: aiSdkSummarizer(openai('gpt-5-mini'), { maxOutputTokens: 2048 }) });
 * ```
 */
export function aiSdkSummarizer(model: AiSdkModel, options: AiSdkSummarizerOptions = {}): Summarizer {
  return llmSummarizer({ ...options, generate: aiSdkGenerate(model) });
}
