import type { GenerateText, GenerateTextResult } from '@compaction/core';
import { type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { ChatModelLike } from './chat-model-like.js';
import { modelIdOf } from './model-id-of.js';

/** `metadata.lc_source` of the summary calls, so streams and traces can tell them apart. */
export const SUMMARY_CALL_SOURCE = 'compaction';

/**
 * A LangChain chat model as core's `GenerateText`: one call with the system
 * prompt and the prompt as messages, tagged `metadata: { lc_source: 'compaction' }`
 * and `tags: ['compaction']` (filter them out of `streamMode: 'messages'`).
 *
 * `maxOutputTokens` cannot be set per call on a LangChain model in general;
 * configure the output limit on the model you pass (e.g. `maxTokens`). A reply the
 * provider cut off (`finish_reason: 'length'`, `stop_reason: 'max_tokens'`) is
 * reported as `finishReason: 'length'`, so core's quality gate rejects it.
 *
 * @example
 * ```ts
 * const summarizer = llmSummarizer({ generate: langchainGenerate(new ChatOpenAI({ model: 'gpt-5-mini' })) });
 * ```
 */
export function langchainGenerate(model: ChatModelLike): GenerateText {
  return async (system, prompt, { signal }) => {
    const response = await model.invoke([new SystemMessage(system), new HumanMessage(prompt)], {
      ...(signal ? { signal } : {}),
      metadata: { lc_source: SUMMARY_CALL_SOURCE },
      tags: [SUMMARY_CALL_SOURCE],
    });
    const finishReason = finishReasonOf(response);
    const usage = (response as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
    const modelId = modelIdOf(model);
    return {
      text: response.text,
      ...(finishReason ? { finishReason } : {}),
      ...(modelId ? { modelId } : {}),
      ...(usage ? { usage: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } } : {}),
    };
  };
}

const LENGTH = new Set(['length', 'max_tokens', 'MAX_TOKENS']);
const FILTERED = new Set(['content_filter', 'SAFETY', 'refusal']);

/** The provider's finish reason, read from the places LangChain integrations put it. */
function finishReasonOf(response: BaseMessage): GenerateTextResult['finishReason'] {
  const metadata = (response.response_metadata ?? {}) as Record<string, unknown>;
  const raw = metadata.finish_reason ?? metadata.stop_reason ?? metadata.finishReason;
  if (typeof raw !== 'string') return undefined;
  if (LENGTH.has(raw)) return 'length';
  if (FILTERED.has(raw)) return 'content-filter';
  return raw === 'stop' || raw === 'end_turn' || raw === 'STOP' ? 'stop' : raw;
}
