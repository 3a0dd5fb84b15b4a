import { InvalidSettingsError } from '../../errors/invalid-settings-error.js';
import { SummaryRejectedError, type SummaryRejection } from '../../errors/summary-rejected-error.js';
import { SPAN_ATTRIBUTES } from '../../tracing/span-attributes.js';
import { annotateActiveSpan } from '../../tracing/trace-span.js';
import { cutToTokens } from '../framing/cut-text.js';
import { escapeFraming } from '../framing/escape-framing.js';
import {
  type SerializeConversationOptions,
  serializeMessages,
  wrapTranscript,
} from '../framing/serialize-conversation.js';
import { checkSummaryContent } from '../quality/check-summary-quality.js';
import { renderDraft } from '../render-summary.js';
import type { GenerateText, SummarizeRequest, Summarizer, SummaryDraft } from '../types.js';
import { buildSummaryPrompt, buildSummaryPromptFromTranscript } from './build-summary-prompt.js';
import { modelDraft } from './compose-summary.js';
import { DEFAULT_PROMPTS, type SummaryPrompts } from './summary-prompts.js';

/** Output limit of a `history` summary. */
export const DEFAULT_HISTORY_MAX_OUTPUT_TOKENS = 4096;
/** Output limit of a `turn-prefix` summary. */
export const DEFAULT_TURN_PREFIX_MAX_OUTPUT_TOKENS = 2048;
/** The summary model's window when neither the options nor the request give one. */
export const DEFAULT_SUMMARY_CONTEXT_WINDOW = 128_000;
/**
 * The share of the summary model's window left unused by a summarization request: our
 * counter and the provider's tokenizer disagree by a few percent, and a request that
 * overflows is exactly the failure this bound prevents.
 */
export const SUMMARY_REQUEST_MARGIN = 0.1;

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
  /**
   * The summary model's context window in tokens. No request is larger: system prompt,
   * prompt and output limit together stay under it (less a 10% margin). A span too long
   * for one request is summarized in chunks at message boundaries, each chunk's summary
   * feeding the next as the previous summary (the update prompt); a single message too
   * long for a chunk is cut, with a marker saying how much.
   * @default request.contextWindow (the conversation's window), else 128000
   */
  contextWindow?: number;
};

type Rejection = { reason: SummaryRejection; detail: string; cause?: unknown };

/**
 * A summarizer that asks a model for the structured checkpoint (initial or update prompt,
 * or the turn-prefix prompt for a split turn), then passes the answer through
 * the quality gate (`checkSummaryContent` on what the model wrote, the rendered text measured). A rejected answer is retried once with a short corrective
 * note appended to the prompt, a `generate` that throws once with the same prompt; a second failure throws `SummaryRejectedError` with
 * the reason (`error` and the cause when `generate` threw), so the engine falls back.
 * An error text is never returned as a summary. An aborted `request.signal` is rethrown
 * at once, without a retry.
 *
 * What the model wrote is kept as the summary's text (its `draft`); the text `summarize`
 * returns, and the engine renders, ends with the file lists of `request.fileOps` (whatever the
 * model wrote there is dropped) and, for `history`, `Last request from user was: …` (cut, with a
 * marker, to half of `request.maxTokens` — at least 500 tokens — when it is a huge paste:
 * the kept messages hold it whole).
 *
 * No request exceeds the summary model's window (`contextWindow`): a longer span is
 * summarized in chunks, each chunk's summary updating the previous one, and a single
 * message too long for a request is cut with a marker. An update is judged against the
 * summary it replaces: an echo of it is rejected as `stale`.
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
  if (options.contextWindow !== undefined && (!Number.isInteger(options.contextWindow) || options.contextWindow < 1)) {
    throw new InvalidSettingsError({
      setting: 'contextWindow',
      problem: `the summary model's window must be a positive whole number of tokens, got ${String(options.contextWindow)}`,
    });
  }

  /** One request: generate, compose, judge; a rejection is retried once with a corrective note. */
  async function generateChecked(
    prompt: string,
    request: SummarizeRequest,
    check: { replacedTokens: number; previousSummary: string | undefined },
    maxOutputTokens: number,
  ): Promise<Drafted> {
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
      annotateActiveSpan({
        [SPAN_ATTRIBUTES.requestModel]: answer?.modelId,
        [SPAN_ATTRIBUTES.inputTokens]: answer?.usage?.inputTokens,
        [SPAN_ATTRIBUTES.outputTokens]: answer?.usage?.outputTokens,
      });
      const raw = typeof answer?.text === 'string' ? answer.text : '';
      const draft = modelDraft(raw, request);
      const text = renderDraft(request.kind, draft, request.fileOps);
      const quality = checkSummaryContent(draft.text, text, {
        kind: request.kind,
        replacedTokens: check.replacedTokens,
        counter: request.counter,
        finishReason: answer?.finishReason,
        previousSummary: check.previousSummary,
      });
      if (quality.ok) return { text, draft };
      rejection = { reason: quality.reason, detail: quality.detail };
    }
    const final = rejection ?? { reason: 'error' as const, detail: 'no attempt was made' };
    throw new SummaryRejectedError({
      reason: final.reason,
      detail: `${final.detail} (2 attempts)`,
      cause: final.cause,
    });
  }

  return {
    name: 'llm',
    summarize: async (request) => (await run(request)).text,
    draft: async (request) => (await run(request)).draft,
  };

  /** The summary of one request, as text and as the draft the text is rendered from. */
  async function run(request: SummarizeRequest): Promise<Drafted> {
    const counter = request.counter;
    const window = options.contextWindow ?? validWindow(request.contextWindow) ?? DEFAULT_SUMMARY_CONTEXT_WINDOW;
    // In a small window the answer may take at most an eighth of it (512 tokens at least), leaving
    // room for the transcript: the engine asks for summaries of 5% of the window anyway.
    const maxOutputTokens = Math.min(
      request.kind === 'turn-prefix' ? limits.turnPrefix : limits.history,
      Math.max(MIN_OUTPUT_TOKENS, Math.floor(window / 8)),
    );
    // The prompt may take what the window holds beyond the answer and the margin.
    const budget = Math.floor(window * (1 - SUMMARY_REQUEST_MARGIN)) - maxOutputTokens;
    // A huge final paste is carried capped, not verbatim: the kept messages still hold it whole.
    const lastRequestCap = Math.max(500, Math.floor((request.maxTokens ?? 4000) / 2));
    const capped: SummarizeRequest =
      request.lastUserRequest !== undefined
        ? { ...request, lastUserRequest: cutToTokens(request.lastUserRequest, lastRequestCap, counter) }
        : request;
    const previousSummary = capped.kind === 'history' ? capped.previousSummary : undefined;

    const prompt = buildSummaryPrompt(capped, prompts, options.serialize);
    // Byte-level tokenizers count at most 3 tokens per UTF-16 unit: most prompts fit without counting.
    const fits = (text: string) =>
      3 * (text.length + prompts.system.length) <= budget ||
      counter.countText(text) + counter.countText(prompts.system) <= budget;
    if (fits(prompt)) {
      return generateChecked(
        prompt,
        capped,
        { replacedTokens: capped.replacedTokens, previousSummary },
        maxOutputTokens,
      );
    }
    return summarizeInChunks(capped, { budget, maxOutputTokens, previousSummary });
  }

  /** A span too long for one request: chunk by chunk, each chunk's summary the next one's previous summary. */
  async function summarizeInChunks(
    request: SummarizeRequest,
    {
      budget,
      maxOutputTokens,
      previousSummary,
    }: { budget: number; maxOutputTokens: number; previousSummary: string | undefined },
  ): Promise<Drafted> {
    const counter = request.counter;
    const serializeOptions =
      request.kind === 'turn-prefix' ? { ...options.serialize, includeReasoning: false } : options.serialize;
    const instruction = request.kind === 'turn-prefix' ? prompts.turnPrefix : prompts.update;
    const fixed =
      counter.countText(prompts.system) +
      counter.countText(instruction) +
      counter.countText(request.instructions ?? '') +
      CHUNK_OVERHEAD_TOKENS;
    // A previous summary larger than a third of the budget is cut: the chunks need the rest.
    let current = previousSummary ? cutToTokens(previousSummary, Math.floor(budget / 3), counter) : undefined;
    const summaryAllowance = Math.max(current ? counter.countText(current) : 0, maxOutputTokens);
    const chunkBudget = budget - fixed - summaryAllowance;
    if (chunkBudget < MIN_CHUNK_TOKENS) {
      throw new SummaryRejectedError({
        reason: 'oversized',
        detail: `the summary model's window leaves ${Math.max(0, chunkBudget)} tokens for the transcript (at least ${MIN_CHUNK_TOKENS} needed); give llmSummarizer a larger contextWindow or lower maxOutputTokens`,
      });
    }
    const chunks = chunkLines(serializeMessages(request.messages, serializeOptions), chunkBudget, counter);
    let last: Drafted = { text: current ?? '', draft: { text: current ?? '', verbatim: true } };
    for (const chunk of chunks) {
      const prompt = buildSummaryPromptFromTranscript(
        {
          kind: request.kind,
          transcript: wrapTranscript(chunk.text),
          ...(current !== undefined ? { previousSummary: current } : {}),
          ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
        },
        prompts,
      );
      const replacedTokens = chunk.tokens + (current ? counter.countText(current) : 0);
      last = await generateChecked(
        prompt,
        request,
        { replacedTokens, previousSummary: request.kind === 'history' ? current : undefined },
        maxOutputTokens,
      );
      current = last.text;
    }
    return last;
  }
}

/** A summary as text, and the draft it is rendered from. */
type Drafted = { text: string; draft: SummaryDraft };

/** Tokens for the tags and blank lines around a chunk's sections, and a corrective note. */
const CHUNK_OVERHEAD_TOKENS = 200;
/** The smallest output limit a summary request is given, however small the window. */
const MIN_OUTPUT_TOKENS = 512;
/** The smallest transcript share of a request worth sending. */
const MIN_CHUNK_TOKENS = 256;

/**
 * Groups per-message transcript lines into chunks of at most `budget` tokens, at message
 * boundaries, of about even size (so that no last chunk is a sliver whose summary could not
 * be smaller than what it replaces); a message larger than a chunk alone is cut to it,
 * with a marker.
 */
function chunkLines(
  lines: readonly string[],
  budget: number,
  counter: { countText(text: string): number },
): { text: string; tokens: number }[] {
  const sized: { line: string; tokens: number }[] = [];
  for (const raw of lines) {
    if (!raw) continue;
    let line = raw;
    let tokens = counter.countText(line) + 1;
    if (tokens > budget) {
      line = cutToTokens(line, budget - 1, counter);
      tokens = counter.countText(line) + 1;
    }
    sized.push({ line, tokens });
  }
  let remaining = sized.reduce((sum, item) => sum + item.tokens, 0);
  const target = Math.ceil(remaining / Math.max(1, Math.ceil(remaining / budget)));
  const chunks: { text: string; tokens: number }[] = [];
  let text = '';
  let tokens = 0;
  for (const item of sized) {
    const full = tokens + item.tokens > budget;
    // Past the even share, close the chunk unless everything left still fits in it.
    const even = tokens + item.tokens > target && tokens + remaining > budget;
    if (text && (full || even)) {
      chunks.push({ text, tokens });
      text = '';
      tokens = 0;
    }
    text = text ? `${text}\n${item.line}` : item.line;
    tokens += item.tokens;
    remaining -= item.tokens;
  }
  if (text || chunks.length === 0) chunks.push({ text, tokens });
  return chunks;
}

function validWindow(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function correctiveNote(original: Rejection, maxOutputTokens: number): string {
  // The detail can quote the model's answer: it is escaped like any data placed in the prompt.
  const rejection = { ...original, detail: escapeFraming(original.detail) };
  const why: Record<SummaryRejection, string> = {
    empty: 'Your previous answer was empty.',
    truncated: `Your previous answer was cut off by the output limit. Write a shorter summary, well under ${maxOutputTokens} tokens.`,
    'missing-headings': `Your previous answer did not follow the format (${rejection.detail}). Use every heading of the format exactly.`,
    'not-smaller': `Your previous answer was longer than the conversation it replaces (${rejection.detail}). Be much more concise.`,
    continuation: `Your previous answer continued the conversation instead of summarizing it (${rejection.detail}).`,
    stale:
      'Your previous answer repeated the previous summary without the new messages. Add what the new messages inside <conversation> did.',
    oversized: `Your previous answer was far too long (${rejection.detail}). Be much more concise.`,
    timeout: '',
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
