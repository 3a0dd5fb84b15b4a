import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { buildStructuredSummary, DEFAULT_STRUCTURED_BUDGET } from './build-structured-summary.js';
import type { Summarizer } from './types.js';

/** Options of {@link structuredSummarizer}. */
export type StructuredSummarizerOptions = {
  /**
   * Token budget of the summary. A target: shorter renderings are tried first, and only
   * file paths and user requests (each kept to at least its first 64 characters) may
   * push a summary over it. `COMPACT_STRUCTURED_BUDGET` (2000) suits small windows.
   * @default 4000
   */
  maxTokens?: number;
};

/**
 * A deterministic summarizer that needs no model: the default when none is configured,
 * and the fallback after an LLM summary is rejected. It fills the headings of the LLM
 * format from the messages themselves — every user request, the last one verbatim, tools
 * used with counts, failed tool calls and whether a later call of the same tool
 * succeeded, the files read and modified, the assistant's last statements — and, for an
 * update, reads the previous summary back and merges it, so stacked compactions lose no
 * request or file path. Under its budget it shortens everything else before a path or a
 * request. It does not fail on any valid request.
 *
 * @example
 * ```ts
 * const summarizer = structuredSummarizer({ maxTokens: COMPACT_STRUCTURED_BUDGET });
 * ```
 */
export function structuredSummarizer(options: StructuredSummarizerOptions = {}): Summarizer {
  const maxTokens = options.maxTokens ?? DEFAULT_STRUCTURED_BUDGET;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new InvalidSettingsError({ setting: 'maxTokens', problem: `must be a positive integer, got ${maxTokens}` });
  }
  return {
    name: 'structured',
    summarize: async (request) =>
      buildStructuredSummary(request, { maxTokens: Math.min(maxTokens, request.maxTokens ?? maxTokens) }),
  };
}
