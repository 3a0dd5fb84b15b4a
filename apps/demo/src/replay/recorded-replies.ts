import type { Message, TokenCounter } from '@compaction/core';
import { tiktokenCounter } from '@compaction/core';
import { createPromptMeter, type PromptMeasure, type PromptMeter } from './prompt-meter.js';
import { ReplayExhaustedError } from './replay-exhausted-error.js';

/** Token usage of one replayed call, computed from the prompt the model received. */
export type ReplayUsage = {
  /** Tokens of the prompt received (times `tokenRatio`), plus `overheadTokens`. */
  inputTokens: number;
  /** The recorded reply's output tokens when the recording has them, else the reply counted. */
  outputTokens: number;
};

/** One answered call. */
export type ReplayReply = {
  /** 1-based number of this call. */
  call: number;
  /** The recorded assistant message that answers it. */
  message: Message;
  usage: ReplayUsage;
  /** The prompt as counted (per-message keys and tokens), for cache accounting. */
  measure: PromptMeasure;
};

/** Options of {@link recordedReplies}. */
export type RecordedRepliesOptions = {
  /** @default tiktokenCounter('o200k_base') */
  counter?: TokenCounter;
  /** A meter to share (and its counts) with other code; built from `counter` when omitted. */
  meter?: PromptMeter;
  /**
   * Tokens the model receives besides the messages (system prompt, tool definitions),
   * added to every call's `inputTokens`.
   * @default 0
   */
  overheadTokens?: number;
  /**
   * Tokens of the recorded model per counted token, for a recording made with another
   * tokenizer (Claude's counts ~1.2–1.3× o200k on code): counted tokens are multiplied by it.
   * @default 1
   */
  tokenRatio?: number;
  /**
   * Start again from the first reply when all were used, instead of throwing.
   * @default false
   */
  loop?: boolean;
  /** Called with every reply, after usage is computed. */
  onReply?: (reply: ReplayReply, prompt: readonly Message[]) => void;
};

/** The cursor over a recording's assistant replies. See {@link recordedReplies}. */
export type RecordedReplies = {
  /** Answers one call: the next recorded assistant message, with usage computed from `prompt`. */
  next(prompt: readonly Message[]): ReplayReply;
  /** How many replies the recording has. */
  readonly total: number;
  /** How many calls were answered so far. */
  readonly calls: number;
};

/**
 * The framework-free part of a replay model: answers each model call with the next
 * recorded assistant message, and reports the usage of the prompt it actually received
 * (counted with core's tiktoken counter, plus a fixed overhead), so a replay through
 * any adapter shows what compaction sent. The AI SDK and LangChain replay models wrap it.
 *
 * @throws ReplayExhaustedError from `next` when every reply was used and `loop` is off.
 * @example
 * ```ts
 * const replies = recordedReplies(parseClaudeCodeSession(text).messages);
 * const { message, usage } = replies.next(prompt);
 * ```
 */
export function recordedReplies(messages: readonly Message[], options: RecordedRepliesOptions = {}): RecordedReplies {
  const replies = messages.filter((message) => message.role === 'assistant');
  const meter = options.meter ?? createPromptMeter(options.counter ?? tiktokenCounter());
  const overheadTokens = options.overheadTokens ?? 0;
  const tokenRatio = options.tokenRatio ?? 1;
  let calls = 0;
  return {
    get total() {
      return replies.length;
    },
    get calls() {
      return calls;
    },
    next(prompt) {
      if (replies.length === 0 || (calls >= replies.length && !options.loop)) {
        throw new ReplayExhaustedError({ replies: replies.length });
      }
      const recorded = replies[calls % replies.length]!;
      calls += 1;
      const measure = meter.measure(prompt);
      const { usage, ...message } = recorded;
      const outputTokens = usage?.outputTokens ?? Math.round(meter.measure([recorded]).tokens * tokenRatio);
      const reply: ReplayReply = {
        call: calls,
        message,
        usage: { inputTokens: overheadTokens + Math.round(measure.tokens * tokenRatio), outputTokens },
        measure,
      };
      options.onReply?.(reply, prompt);
      return reply;
    },
  };
}
