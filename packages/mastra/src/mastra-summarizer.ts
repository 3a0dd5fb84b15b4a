import {
  describeValue,
  type GenerateText,
  InvalidSettingsError,
  type LlmSummarizerOptions,
  llmSummarizer,
  type Summarizer,
} from '@compaction/core';
import { checkSummarizerOptions } from '@compaction/core/internal';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { checkModelRouterId } from './check-model-router-id.js';

/**
 * A Mastra model as core's `GenerateText`: each call runs a bare Mastra
 * `Agent` (no memory, tools or processors) with the summarization system
 * prompt as its instructions. Accepts whatever an `Agent` accepts as `model`:
 * an AI SDK language model, a resolved Mastra model, or a model-router id
 * such as `'openai/gpt-5-mini'`.
 */
export function mastraGenerateText(model: MastraModelConfig): GenerateText {
  return async (system, prompt, { maxOutputTokens, signal }) => {
    const agent = new Agent({
      id: 'compaction-summarizer',
      name: 'Compaction summarizer',
      instructions: system,
      model,
    });
    const result = await agent.generate(prompt, {
      modelSettings: { maxOutputTokens },
      ...(signal ? { abortSignal: signal } : {}),
    });
    if (result.error) throw result.error;
    const modelId = typeof model === 'string' ? model : (model as { modelId?: unknown }).modelId;
    return {
      text: result.text,
      finishReason: result.finishReason,
      ...(typeof modelId === 'string' ? { modelId } : {}),
      ...(result.usage
        ? { usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens } }
        : {}),
    };
  };
}

/** Options of {@link mastraSummarizer}: those of core's `llmSummarizer` except `generate`. */
export type MastraSummarizerOptions = Omit<LlmSummarizerOptions, 'generate'>;

/**
 * Core's LLM summarizer (`llmSummarizer`: structured checkpoint prompts, quality
 * gate, one corrective retry) running on a Mastra model. Checked when made: a model
 * id that is no `provider/model` id, something that is no model, or an unknown
 * option (`maxTokens`: it is `maxOutputTokens`) is an `InvalidSettingsError`.
 *
 * @example
 * ```ts
 * new CompactionProcessor({ summarizer: mastraSummarizer('openai/gpt-5-mini') });
 * ```
 */
export function mastraSummarizer(model: MastraModelConfig, options: MastraSummarizerOptions = {}): Summarizer {
  if (typeof model === 'string') checkModelRouterId(model, 'model');
  else if (!isModelObject(model)) {
    throw new InvalidSettingsError({
      setting: 'model',
      problem: `mastraSummarizer takes a Mastra model (an AI SDK model, or a model-router id such as 'openai/gpt-5-mini'), got ${describeValue(model)}`,
    });
  }
  checkSummarizerOptions(options, 'mastraSummarizer');
  return llmSummarizer({ ...options, generate: mastraGenerateText(model) });
}

/** An object an `Agent` takes as `model`: a language model, or an OpenAI-compatible config (`{ id }` / `{ providerId, modelId }`). */
function isModelObject(model: unknown): boolean {
  if (typeof model !== 'object' || model === null) return false;
  const value = model as Record<string, unknown>;
  return (
    typeof value.doGenerate === 'function' ||
    typeof value.doStream === 'function' ||
    typeof value.id === 'string' ||
    (typeof value.providerId === 'string' && typeof value.modelId === 'string')
  );
}
