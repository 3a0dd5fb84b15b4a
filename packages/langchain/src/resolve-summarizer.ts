import { type Summarizer, structuredSummarizer } from '@compaction/core';
import { type ChatModelLike, isChatModelLike } from './chat-model-like.js';
import { langchainSummarizer } from './langchain-summarizer.js';

/**
 * What makes the summaries: a core `Summarizer`, a LangChain chat model (wrapped
 * with `langchainSummarizer`), or `'structured'` (core's deterministic summary, no model).
 */
export type SummarizerOption = Summarizer | ChatModelLike | 'structured';

const fromModel = new WeakMap<object, Summarizer>();

/**
 * The summarizer to use: `option` when given, else an LLM summarizer over
 * `fallbackModel` (the agent's model) when it is a chat model, else structured.
 */
export function resolveSummarizer(option: SummarizerOption | undefined, fallbackModel?: unknown): Summarizer {
  if (option === 'structured') return structuredSummarizer();
  if (isSummarizer(option)) return option;
  const model = option ?? (isChatModelLike(fallbackModel) ? fallbackModel : undefined);
  if (!model) return structuredSummarizer();
  let summarizer = fromModel.get(model);
  if (!summarizer) {
    summarizer = langchainSummarizer(model);
    fromModel.set(model, summarizer);
  }
  return summarizer;
}

function isSummarizer(value: unknown): value is Summarizer {
  return (
    typeof value === 'object' && value !== null && typeof (value as { summarize?: unknown }).summarize === 'function'
  );
}
