import { describeValue, InvalidSettingsError } from '@compaction/core';
import type { AiSdkModel } from './as-language-model.js';
import { isAiSdkModel } from './resolve-summarizer.js';

/**
 * Checks that `model` is an AI SDK model object (`openai('gpt-5-mini')`) when it is
 * given to `where`, not at its first call: a string id (which these functions call
 * directly, with no provider to resolve it) or anything else throws
 * `InvalidSettingsError` naming `model` and what to pass.
 *
 * @example
 * ```ts
 * checkAiSdkModel(model, 'aiSdkSummarizer');
 * ```
 */
export function checkAiSdkModel(model: unknown, where: string): asserts model is AiSdkModel {
  if (isAiSdkModel(model)) return;
  const example = typeof model === 'string' ? `openai(${JSON.stringify(model)})` : "openai('gpt-5-mini')";
  throw new InvalidSettingsError({
    setting: 'model',
    problem: `${where} takes an AI SDK model object, e.g. ${where}(${example}) (a provider's model, called directly: a string id cannot be); got ${describeValue(model)}`,
  });
}
