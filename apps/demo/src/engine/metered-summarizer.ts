import {
  buildSummaryPrompt,
  DEFAULT_PROMPTS,
  type SummarizeRequest,
  type Summarizer,
  type TokenCounter,
} from '@compaction/core';

/** The tokens of one summarization, as a model call would have billed them. */
export type SummarizationTokens = { inputTokens: number; outputTokens: number; kind: SummarizeRequest['kind'] };

/**
 * Wraps a summarizer to measure every summary it makes as if a model had written it:
 * input is the summarization prompt `llmSummarizer` would send (system prompt plus
 * `buildSummaryPrompt`), output the summary. A deterministic summarizer costs nothing
 * to run, but the replay counts what an LLM summary would cost, to compare fairly.
 */
export function meteredSummarizer(
  inner: Summarizer,
  counter: TokenCounter,
  onSummary: (tokens: SummarizationTokens) => void,
): Summarizer {
  return {
    name: inner.name,
    async summarize(request) {
      const summary = await inner.summarize(request);
      const prompt = buildSummaryPrompt(request, DEFAULT_PROMPTS);
      onSummary({
        kind: request.kind,
        inputTokens: counter.countText(DEFAULT_PROMPTS.system) + counter.countText(prompt),
        outputTokens: counter.countText(summary),
      });
      return summary;
    },
  };
}
