import { type LanguageModel, wrapLanguageModel } from 'ai';
import type { LanguageModelV4 } from './ai-sdk-types.js';

/** A model object of any specification version `ai` accepts (v2, v3, v4); not a string id. */
export type AiSdkModel = Exclude<LanguageModel, string>;

/** The model as `LanguageModelV4` (`ai` adapts v2 and v3 models; a v4 model is returned as it is). */
export function asLanguageModel(model: AiSdkModel): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: [] });
}
