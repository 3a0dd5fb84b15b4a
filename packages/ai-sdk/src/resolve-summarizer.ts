import { InvalidSettingsError, type Summarizer, structuredSummarizer } from '@compaction/core';
import { aiSdkSummarizer } from './ai-sdk-summarizer.js';
import type { AiSdkModel } from './as-language-model.js';
import type { CompactionOptions } from './compaction-options.js';

/** The summarizer the options ask for; `'llm'` writes with `summaryModel`, else with `model`. */
export function resolveSummarizer(options: CompactionOptions, model: AiSdkModel | string): Summarizer {
  const choice = options.summarizer ?? 'llm';
  if (typeof choice === 'object') return choice;
  if (choice === 'structured') return structuredSummarizer();
  const writer = options.summaryModel ?? model;
  if (typeof writer === 'string') {
    throw new InvalidSettingsError({
      setting: 'summaryModel',
      problem: `the model is the id "${writer}", which cannot be called directly; pass summaryModel (a model object) or summarizer: 'structured'`,
    });
  }
  return aiSdkSummarizer(writer);
}
