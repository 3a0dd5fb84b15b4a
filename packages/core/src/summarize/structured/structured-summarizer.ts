import { InvalidSettingsError } from '../../errors/invalid-settings-error.js';
import type { SummarizeRequest, Summarizer } from '../types.js';
import { buildStructuredDraft, DEFAULT_STRUCTURED_BUDGET } from './build-structured-summary.js';

const KNOWN_OPTIONS: readonly string[] = ['maxTokens'];

/** Options of {@link structuredSummarizer}. */
export type StructuredSummarizerOptions = {
  /**
   * Token budget of the summary (also capped by the request's `maxTokens`). The summary fills
   * it by information value and never exceeds it: when even the goal, the requests and the
   * file paths do not fit, those are condensed too (requests cut, paths grouped by folder, the
   * oldest requests counted). `COMPACT_STRUCTURED_BUDGET` (2000) suits small windows.
   * @default 4000
   */
  maxTokens?: number;
};

/**
 * A deterministic summarizer that needs no model: the default when none is configured,
 * and the fallback after an LLM summary is rejected. It writes a handoff in the headings of
 * the LLM format: the goal in the user's words; every genuine user request in order (text a
 * harness injected — `<task-notification>`, `<system-reminder>`, "[Request interrupted by
 * user…]", `synthetic` messages — is context, not a request); per modified file what changed
 * (names and definitions its `Edit`/`Write`/patch inputs brought in); commands with the
 * outcome of their latest run and the last build/test status with the failing names; errors
 * resolved and unresolved; the assistant's statements of intent and decision; the open todo
 * list; the next step; the files read and modified; the last request verbatim. Text that came
 * from a tool is quoted as data on the line of a label naming the tool, never as the summary's
 * or the user's words. Beyond what is required, lines are chosen by information value (names
 * not yet carried, names the conversation mentions, recent work first) until the budget is
 * used. An update merges the facts the previous summary carried, older detail condensed first,
 * so stacked compactions stay within budget and lose no request or path from the state's file
 * lists. It does not fail on any valid request. Its `draft` is what the engine stores: the
 * sections, the file listing and the facts it shows, so the next update merges facts instead
 * of reading the text back.
 *
 * @example
 * ```ts
 * const summarizer = structuredSummarizer({ maxTokens: COMPACT_STRUCTURED_BUDGET });
 * ```
 */
export function structuredSummarizer(options: StructuredSummarizerOptions = {}): Summarizer {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `must be an object like { maxTokens: 2000 }, got ${Array.isArray(options) ? 'an array' : String(options)}`,
    });
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key)) {
      throw new InvalidSettingsError({ setting: key, problem: `unknown option; known: ${KNOWN_OPTIONS.join(', ')}` });
    }
  }
  const maxTokens = options.maxTokens ?? DEFAULT_STRUCTURED_BUDGET;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new InvalidSettingsError({ setting: 'maxTokens', problem: `must be a positive integer, got ${maxTokens}` });
  }
  const build = (request: SummarizeRequest) =>
    buildStructuredDraft(request, { maxTokens: Math.min(maxTokens, request.maxTokens ?? maxTokens) });
  return {
    name: 'structured',
    summarize: async (request) => build(request).text,
    draft: async (request) => build(request).draft,
  };
}
