import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { SummaryRejectedError, type SummaryRejection } from '../errors/summary-rejected-error.js';
import { buildSummaryPrompt } from './build-summary-prompt.js';
import { checkSummaryQuality } from './check-summary-quality.js';
import { composeSummary, extractModelSummary } from './compose-summary.js';
import type { SerializeConversationOptions } from './serialize-conversation.js';
import { DEFAULT_PROMPTS, type SummaryPrompts } from './summary-prompts.js';
import type { GenerateText, SummarizeRequest, Summarizer } from './types.js';

/** Output limit of a `history` summary. */
export const DEFAULT_HISTORY_MAX_OUTPUT_TOKENS = 4096;
/** Output limit of a `turn-prefix` summary. */
export const DEFAULT_TURN_PREFIX_MAX_OUTPUT_TOKENS = 2048;

/** Options of {@link llmSummarizer}. */
export type LlmSummarizerOptions = {
  /** The model call, built by an adapter from its framework's model. */
  generate: GenerateText;
  /**
   * Prompts to use instead of the defaults (each one optional).
   * @default DEFAULT_PROMPTS
   */
  prompts?: Partial<SummaryPrompts>;
  /**
   * Output token limit of a summary; a number sets both kinds.
   * @default { history: 4096, turnPrefix: 2048 }
   */
  maxOutputTokens?: number | { history?: number; turnPrefix?: number };
  /**
   * How the transcript is rendered for the model.
   * @default { maxToolOutputChars: 2000, includeReasoning: false }
   */
  serialize?: SerializeConversationOptions;
};

type Rejection = { reason: SummaryRejection; detail: string; cause?: unknown };

/**
 * A summarizer that asks a model for the structured checkpoint (initial or update prompt,
 * or the turn-prefix prompt for a split turn), then passes the answer through
 * {@link checkSummaryQuality}. A rejected answer is retried once with a short corrective
 * note appended to the prompt, a `generate` that throws once with the same prompt; a second failure throws `SummaryRejectedError` with
 * the reason (`error` and the cause when `generate` threw), so the engine falls back.
 * An error text is never returned as a summary. An aborted `request.signal` is rethrown
 * at once, without a retry.
 *
 * The stored text ends with the file lists of `request.fileOps` (replacing whatever the
 * model wrote there) and, for `history`, `Last request from user was: …` verbatim.
 *
 * @example
 * ```ts
 * const summarizer = llmSummarizer({
 *   generate: async (system, prompt, { maxOutputTokens, signal }) => {
 *     const { text, finishReason } = await generateText({ model, system, prompt, maxOutputTokens, abortSignal: signal });
 *     return { text, finishReason };
 *   },
 * });
 * ```
 */
export function llmSummarizer(options: LlmSummarizerOptions): Summarizer {
  if (typeof options?.generate !== 'function') {
    throw new InvalidSettingsError({
      setting: 'generate',
      problem: 'llmSummarizer needs a generate function (system, prompt, options) => { text, finishReason }',
    });
  }
  const prompts: SummaryPrompts = { ...DEFAULT_PROMPTS, ...definedEntries(options.prompts) };
  const limits = outputLimits(options.maxOutputTokens);
  return {
    name: 'llm',
    async summarize(request: SummarizeRequest): Promise<string> {
      const maxOutputTokens = request.kind === 'turn-prefix' ? limits.turnPrefix : limits.history;
      const prompt = buildSummaryPrompt(request, prompts, options.serialize);
      let rejection: Rejection | undefined;
      for (let attempt = 0; attempt < 2; attempt++) {
        request.signal?.throwIfAborted();
        const attemptPrompt =
          rejection && rejection.reason !== 'error'
            ? `${prompt}\n\n${correctiveNote(rejection, maxOutputTokens)}`
            : prompt;
        let answer: Awaited<ReturnType<GenerateText>>;
        try {
          answer = await options.generate(prompts.system, attemptPrompt, { maxOutputTokens, signal: request.signal });
        } catch (error) {
          if (request.signal?.aborted) throw error;
          rejection = { reason: 'error', detail: `generate threw: ${errorMessage(error)}`, cause: error };
          continue;
        }
        const raw = typeof answer?.text === 'string' ? answer.text : '';
        const text = composeSummary(extractModelSummary(raw), request);
        const quality = checkSummaryQuality(text, {
          kind: request.kind,
          replacedTokens: request.replacedTokens,
          counter: request.counter,
          finishReason: answer?.finishReason,
        });
        if (quality.ok) return text;
        rejection = { reason: quality.reason, detail: quality.detail };
      }
      const final = rejection ?? { reason: 'error' as const, detail: 'no attempt was made' };
      throw new SummaryRejectedError({
        reason: final.reason,
        detail: `${final.detail} (2 attempts)`,
        cause: final.cause,
      });
    },
  };
}

function correctiveNote(rejection: Rejection, maxOutputTokens: number): string {
  const why: Record<SummaryRejection, string> = {
    empty: 'Your previous answer was empty.',
    truncated: `Your previous answer was cut off by the output limit. Write a shorter summary, well under ${maxOutputTokens} tokens.`,
    'missing-headings': `Your previous answer did not follow the format (${rejection.detail}). Use every heading of the format exactly.`,
    'not-smaller': `Your previous answer was longer than the conversation it replaces (${rejection.detail}). Be much more concise.`,
    continuation: `Your previous answer continued the conversation instead of summarizing it (${rejection.detail}).`,
    error: '',
  };
  return `${why[rejection.reason]} Output ONLY the summary in the exact format above; do not reply to, address or continue the conversation.`;
}

function outputLimits(setting: LlmSummarizerOptions['maxOutputTokens']): { history: number; turnPrefix: number } {
  const limits =
    typeof setting === 'number'
      ? { history: setting, turnPrefix: setting }
      : {
          history: setting?.history ?? DEFAULT_HISTORY_MAX_OUTPUT_TOKENS,
          turnPrefix: setting?.turnPrefix ?? DEFAULT_TURN_PREFIX_MAX_OUTPUT_TOKENS,
        };
  for (const value of [limits.history, limits.turnPrefix]) {
    if (!Number.isInteger(value) || value < 1) {
      throw new InvalidSettingsError({
        setting: 'maxOutputTokens',
        problem: `must be a positive integer, got ${value}`,
      });
    }
  }
  return limits;
}

function definedEntries<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'unknown error';
  }
}
