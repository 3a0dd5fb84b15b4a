import type { GenerateText } from '@compaction/core';
import { type AiSdkModel, asLanguageModel } from './as-language-model.js';
import { checkAiSdkModel } from './check-ai-sdk-model.js';

/**
 * Core's `GenerateText` from any AI SDK model: one direct `doGenerate` call
 * (no middleware of a wrapped model runs, so a compaction middleware never
 * calls itself) with the system prompt and one user message.
 *
 * @throws InvalidSettingsError when `model` is not an AI SDK model object (a string id, say).
 * @example
 * ```ts
 * const summarizer = llmSummarizer({ generate: aiSdkGenerate(openai('gpt-5-mini')) });
 * ```
 */
export function aiSdkGenerate(model: AiSdkModel): GenerateText {
  checkAiSdkModel(model, 'aiSdkGenerate');
  const languageModel = asLanguageModel(model);
  return async (system, prompt, { maxOutputTokens, signal }) => {
    const result = await languageModel.doGenerate({
      prompt: [
        { role: 'system', content: system },
        { role: 'user', content: [{ type: 'text', text: prompt }] },
      ],
      maxOutputTokens,
      ...(signal ? { abortSignal: signal } : {}),
    });
    const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    return {
      text,
      finishReason: result.finishReason.unified,
      modelId: languageModel.modelId,
      usage: { inputTokens: result.usage.inputTokens.total, outputTokens: result.usage.outputTokens.total },
    };
  };
}
