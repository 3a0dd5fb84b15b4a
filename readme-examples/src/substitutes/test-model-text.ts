import { HISTORY_SUMMARY_HEADINGS } from '@compaction/core';

/**
 * What the substituted models answer, every time: a text that is also a valid
 * history summary (every heading core's quality gate asks for), so an example
 * that compacts with the model as its summarizer gets an LLM summary, not a fallback.
 */
export const TEST_MODEL_TEXT = HISTORY_SUMMARY_HEADINGS.map(
  (heading) => `## ${heading}\n- The example ran against the test model.`,
).join('\n\n');

/** What a provider might report as the input tokens of a request (about 4 characters a token). */
export function reportedInputTokens(request: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(request).length / 4));
}
