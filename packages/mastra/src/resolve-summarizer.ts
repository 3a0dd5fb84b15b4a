import { resolveSummarizerOption, type Summarizer, type SummarizerOptionResolver } from '@compaction/core';
import type { MastraModelConfig } from '@mastra/core/llm';
import { checkModelRouterId } from './check-model-router-id.js';
import { mastraSummarizer } from './mastra-summarizer.js';

/** Whether a value is a model object an `Agent` takes (an AI SDK model, a resolved Mastra model). */
export function isMastraModel(value: unknown): value is MastraModelConfig {
  return (
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as { doGenerate?: unknown }).doGenerate === 'function' ||
      typeof (value as { doStream?: unknown }).doStream === 'function')
  );
}

/** How the Mastra adapter reads `summarizer` (core's shared resolver, configured for Mastra models). */
export const mastraSummarizerResolver: SummarizerOptionResolver<MastraModelConfig> = {
  option: 'summarizer',
  accepts:
    "a Mastra model (an AI SDK model, or a model-router id such as 'openai/gpt-5-mini'), 'structured', or a core Summarizer (mastraSummarizer(model))",
  isModel: isMastraModel,
  fromModel: (model) => mastraSummarizer(model),
  fromModelId: (id) => {
    checkModelRouterId(id, 'summarizer'); // at once: an id Mastra's model router can never parse
    return mastraSummarizer(id);
  },
};

/**
 * The summarizer the processor's `summarizer` option fixes, or undefined when each
 * session writes with its run's model (nothing given, or `'llm'`). A model object
 * or a model-router id is wrapped with `mastraSummarizer`; anything else that is
 * not a core `Summarizer` or `'structured'` is an `InvalidSettingsError`.
 */
export function resolveProcessorSummarizer(option: unknown): Summarizer | undefined {
  if (option === undefined || option === 'llm') return undefined;
  return resolveSummarizerOption(option, mastraSummarizerResolver);
}
