import { type LlmSummarizerOptions, llmSummarizer, type Summarizer } from '@compaction/core';
import { checkSummarizerOptions } from '@compaction/core/internal';
import { aiSdkGenerate } from './ai-sdk-generate.js';
import type { AiSdkModel } from './as-language-model.js';
import { checkAiSdkModel } from './check-ai-sdk-model.js';

/** Options of {@link aiSdkSummarizer}: core's `llmSummarizer` options without `generate`. */
export type AiSdkSummarizerOptions = Omit<LlmSummarizerOptions, 'generate'>;

/**
 * Core's LLM summarizer (structured checkpoint prompts, quality gate, one
 * corrective retry) writing with an AI SDK model. The model and the options are
 * checked when it is made: a model that is no AI SDK model object (a string id),
 * options that are no object, or an unknown key (`maxTokens` is told
 * `maxOutputTokens`) throw `InvalidSettingsError` (core's `checkSummarizerOptions`, as
 * the other adapters' summarizers); the values are `llmSummarizer`'s checks.
 *
 * @example
 * ```ts
 * compactionMiddleware({ summarizer: aiSdkSummarizer(openai('gpt-5-mini'), { maxOutputTokens: 2048 }) });
 * ```
 */
export function aiSdkSummarizer(model: AiSdkModel, options: AiSdkSummarizerOptions = {}): Summarizer {
  checkAiSdkModel(model, 'aiSdkSummarizer');
  checkSummarizerOptions(options, 'aiSdkSummarizer'); // core's one check of the summarizer options
  return llmSummarizer({ ...options, generate: aiSdkGenerate(model) });
}
