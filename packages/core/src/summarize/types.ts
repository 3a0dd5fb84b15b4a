import type { Message } from '../messages/types.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { FileListing } from './file-operations/condense-file-operations.js';
import type { CarriedFacts } from './structured/carried-facts.js';

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
  /**
   * The text of the summary to update, when an earlier compaction exists (`history` only): what an
   * LLM is shown. Given alone (no `previous`), it is read once as a summary that exists only as text.
   */
  previousSummary?: string;
  /**
   * The summary to update as the state holds it (`history` only): its parts and its carried last
   * request. The engine always sets it with `previousSummary`; the structured and truncate
   * summarizers build on it and never read `previousSummary` back when it is there.
   */
  previous?: PreviousSummary;
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

/**
 * One summary the compaction state holds, as its summarizer made it. The text a model sees is
 * rendered from the parts, `state.fileOps` and `state.lastRequest` by `renderSummary`, once per
 * compaction; nothing is read back out of that text.
 */
export type SummaryPart = {
  /** `history`: everything summarized so far; `turn-prefix`: the start of a turn cut in two. */
  kind: 'history' | 'turn-prefix';
  /** The summarizer that wrote it (`structured`, `llm`, `truncate`, a custom name). */
  strategy: string;
  /**
   * What the summarizer wrote: its sections, without the file lists and the last-request line
   * (those are rendered from the state). For a `verbatim` part, the whole text as written.
   */
  text: string;
  /** What the structured summarizer carries into the next update, so it never re-reads `text`. */
  facts?: CarriedFacts;
  /**
   * How the file lists under a `history` part are written: the structured summarizer condenses
   * them to fit its budget; the state keeps every path either way.
   * @default 'full'
   */
  fileListing?: FileListing;
  /**
   * The text stands as it was written, file lists and last request included if it has them: a
   * custom summarizer's answer, a state of schema 1, a summary cut to fit its budget.
   * @default false
   */
  verbatim?: boolean;
};

/** An earlier summary as the state holds it (see {@link SummaryPart}). */
export type PreviousSummary = {
  /** Its parts, in the order they are rendered. */
  parts: readonly SummaryPart[];
  /** The last request it carried, as it carried it. */
  lastRequest?: string;
  /**
   * File operations that come only with the earlier summary (one given as text); the engine
   * leaves this out, as `request.fileOps` holds them all.
   */
  fileOps?: FileOperations;
};

/** A summary as a summarizer makes it, before the engine renders it with the file lists and the last request. */
export type SummaryDraft = Omit<SummaryPart, 'kind' | 'strategy'> & {
  /** The last request to carry after the summary (`history` only), as this summarizer cut it. */
  lastRequest?: string;
};

/** Turns old messages into a summary. Throws when it cannot; the engine then falls back. */
export type Summarizer = {
  /** Recorded as the compaction's strategy: `llm`, `structured`, `truncate`, or a custom name. */
  readonly name: string;
  /** The summary as text: what {@link Summarizer.draft} makes, rendered with the file lists and the last request. */
  summarize(request: SummarizeRequest): Promise<string>;
  /**
   * The summary as a part of the state (the built-in summarizers have it; the engine prefers
   * it). Without it, the engine stores what `summarize` returns as a `verbatim` part.
   */
  draft?(request: SummarizeRequest): Promise<SummaryDraft>;
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
