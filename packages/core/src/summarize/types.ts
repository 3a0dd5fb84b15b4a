import type { Message } from '../messages/types.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** Files the summarized span read and modified. Sorted, deduplicated, disjoint. */
export type FileOperations = {
  /** Files only read (a file read and later modified is listed under `modified` only). */
  read: string[];
  /** Files written, edited, created or patched. */
  modified: string[];
};

/** What the engine asks a summarizer for. */
export type SummarizeRequest = {
  /**
   * `history`: summarize `messages` (or update `previousSummary` with them);
   * `turn-prefix`: summarize the first part of a turn that is cut in two (split turn).
   */
  kind: 'history' | 'turn-prefix';
  /** Only the messages not summarized before. */
  messages: readonly Message[];
  /** The summary to update, when an earlier compaction exists (`history` only). */
  previousSummary?: string;
  /** File operations merged across every compaction so far, this span included. */
  fileOps: FileOperations;
  /** Optional focus from a manual compaction, e.g. "focus on the parser bug". */
  instructions?: string;
  /** The most recent user request in the whole conversation, carried verbatim. */
  lastUserRequest?: string;
  /** Tokens of what the summary replaces (previous summary + messages); a summary must be smaller. */
  replacedTokens: number;
  /**
   * A size the summary should stay under, from the context window (the engine
   * asks for at most 5% of it). The structured summarizer never exceeds it.
   */
  maxTokens?: number;
  /**
   * Set on the `history` request of a split turn: a `turn-prefix` summary is made beside it
   * and both are stored as one summary, so the two share the size (the structured summarizer
   * gives the history three quarters of its budget and the prefix one quarter).
   */
  splitTurn?: boolean;
  /**
   * The context window, in tokens, of the conversation's model. An LLM summarizer that is
   * not told its own model's window keeps every request (prompt and output) within this.
   */
  contextWindow?: number;
  /** The counter the engine uses, so a summarizer can measure its own output. */
  counter: TokenCounter;
  signal?: AbortSignal;
};

/** Turns old messages into a summary. Throws when it cannot; the engine then falls back. */
export type Summarizer = {
  /** Recorded as the compaction's strategy: `llm`, `structured`, `truncate`, or a custom name. */
  readonly name: string;
  summarize(request: SummarizeRequest): Promise<string>;
};

/** The generation function an adapter builds from its framework's model. */
export type GenerateText = (
  system: string,
  prompt: string,
  options: { maxOutputTokens: number; signal?: AbortSignal },
) => Promise<GenerateTextResult>;

export type GenerateTextResult = {
  text: string;
  /** `length` when the output limit cut the text off. */
  finishReason?: 'stop' | 'length' | 'content-filter' | 'error' | 'other' | (string & {});
  /** The model that answered, for the `compaction.summarize` span (`gen_ai.request.model`). */
  modelId?: string;
  /** Tokens the provider reported for the call, for the `compaction.summarize` span. */
  usage?: { inputTokens?: number | undefined; outputTokens?: number | undefined };
};
