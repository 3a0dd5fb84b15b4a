import {
  checkOptionKeys,
  describeValue,
  InvalidSettingsError,
  type LlmSummarizerOptions,
  llmSummarizer,
  type PeerOptionHint,
  type Summarizer,
} from '@compaction/core';
import { aiSdkGenerate } from './ai-sdk-generate.js';
import type { AiSdkModel } from './as-language-model.js';
import { checkAiSdkModel } from './check-ai-sdk-model.js';

/** Options of {@link aiSdkSummarizer}: core's `llmSummarizer` options without `generate`. */
export type AiSdkSummarizerOptions = Omit<LlmSummarizerOptions, 'generate'>;

/** Every option. Typed against the options type: a new option must be listed here, or the typecheck fails. */
const OPTIONS = {
  prompts: true,
  maxOutputTokens: true,
  serialize: true,
  contextWindow: true,
} satisfies Record<keyof AiSdkSummarizerOptions, true>;

/** What users copy from the AI SDK's call settings and from our own summarizer factories. */
const HINTS: Readonly<Record<string, PeerOptionHint>> = {
  maxTokens: { from: 'AI SDK 4 (generateText)', use: 'maxOutputTokens' },
  model: { use: "the first argument: aiSdkSummarizer(openai('gpt-5-mini'), options)" },
  generate: { use: 'llmSummarizer({ generate }) from @compaction/core (aiSdkSummarizer writes with its model)' },
  system: { use: 'prompts: { … } (core’s SummaryPrompts)' },
  prompt: { use: 'prompts: { … } (core’s SummaryPrompts)' },
};

/**
 * Core's LLM summarizer (structured checkpoint prompts, quality gate, one
 * corrective retry) writing with an AI SDK model. The model and the options are
 * checked when it is made: a model that is no AI SDK model object (a string id),
 * options that are no object, or an unknown key (`maxTokens` is told
 * `maxOutputTokens`) throw `InvalidSettingsError`; the values are core's checks.
 *
 * @example
 * ```ts
 * compactionMiddleware({ summarizer: aiSdkSummarizer(openai('gpt-5-mini'), { maxOutputTokens: 2048 }) });
 * ```
 */
export function aiSdkSummarizer(model: AiSdkModel, options: AiSdkSummarizerOptions = {}): Summarizer {
  checkAiSdkModel(model, 'aiSdkSummarizer');
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `aiSdkSummarizer(model, options) takes an options object ({ maxOutputTokens, prompts, serialize, contextWindow }), got ${describeValue(options)}`,
    });
  }
  checkOptionKeys(options, Object.keys(OPTIONS), 'aiSdkSummarizer option', HINTS);
  return llmSummarizer({ ...options, generate: aiSdkGenerate(model) });
}
