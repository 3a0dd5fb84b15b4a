/**
 * The message model every adapter converts to and from. It follows the AI SDK's
 * prompt shape (the richest of the three frameworks); LangChain and Mastra map onto it.
 */

/** Plain text. */
export type TextPart = { type: 'text'; text: string; providerOptions?: ProviderOptions };

/** Model reasoning ("thinking"). Left out of summaries by default. */
export type ReasoningPart = { type: 'reasoning'; text: string; providerOptions?: ProviderOptions };

/** A tool invocation requested by the assistant. `input` is the parsed arguments. */
export type ToolCallPart = {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerOptions?: ProviderOptions;
};

/** The result of a tool invocation, matched to its call by `toolCallId`. */
export type ToolResultPart = {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: unknown;
  isError?: boolean;
  providerOptions?: ProviderOptions;
};

/** An image or other file. Counted by a fixed rule (see `countMessageTokens`). */
export type FilePart = {
  type: 'file';
  mediaType: string;
  data?: unknown;
  url?: string;
  filename?: string;
  providerOptions?: ProviderOptions;
};

export type Part = TextPart | ReasoningPart | ToolCallPart | ToolResultPart | FilePart;

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Provider-specific options carried through untouched. */
export type ProviderOptions = Record<string, Record<string, unknown>>;

/** Token usage the provider reported for the call that produced a message. */
export type MessageUsage = { inputTokens?: number; outputTokens?: number };

export type Message = {
  /** Stable and unique within a conversation. Adapters derive one when the framework has none. */
  id: string;
  role: Role;
  parts: Part[];
  usage?: MessageUsage;
  /**
   * Free-form data carried through untouched. Keys core reads:
   * `pinned: true` keeps a message verbatim in every context (never summarized);
   * `compaction` marks messages core itself inserted (summary, acknowledgement, synthetic results);
   * `synthetic: true` marks injected text that is not a user request (command caveats, reminders).
   */
  metadata?: Record<string, unknown>;
};

export const PART_TYPES = ['text', 'reasoning', 'tool-call', 'tool-result', 'file'] as const;
export const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
