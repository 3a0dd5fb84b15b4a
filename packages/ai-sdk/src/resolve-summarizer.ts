import {
  InvalidSettingsError,
  resolveSummarizerOption,
  type Summarizer,
  type SummarizerOptionResolver,
} from '@compaction/core';
import { aiSdkSummarizer } from './ai-sdk-summarizer.js';
import type { AiSdkModel } from './as-language-model.js';
import type { CompactionOptions } from './compaction-options.js';

/** Whether a value is an AI SDK model object (any specification version). */
export function isAiSdkModel(value: unknown): value is AiSdkModel {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { doGenerate?: unknown }).doGenerate === 'function' &&
    typeof (value as { modelId?: unknown }).modelId === 'string'
  );
}

/** How the AI SDK adapter reads `summarizer` (core's shared resolver, configured for AI SDK models). */
export const aiSdkSummarizerResolver: SummarizerOptionResolver<AiSdkModel> = {
  option: 'summarizer',
  accepts:
    "'llm', 'structured', an AI SDK model (e.g. openai('gpt-5-mini')) or a core Summarizer (aiSdkSummarizer(model))",
  isModel: isAiSdkModel,
  fromModel: (model) => aiSdkSummarizer(model),
};

/** The summarizer the options ask for; `'llm'` writes with `summaryModel`, else with `model`. */
export function resolveSummarizer(options: CompactionOptions, model: AiSdkModel | string): Summarizer {
  const choice = options.summarizer ?? 'llm';
  if (choice !== 'llm') return resolveSummarizerOption(choice, aiSdkSummarizerResolver);
  const writer = options.summaryModel ?? model;
  if (typeof writer === 'string') {
    throw new InvalidSettingsError({
      setting: 'summaryModel',
      problem: `the model is the id "${writer}", which cannot be called directly; pass summaryModel (a model object) or summarizer: 'structured'`,
    });
  }
  return resolveSummarizerOption('llm', aiSdkSummarizerResolver, writer);
}
