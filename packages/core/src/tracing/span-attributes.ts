/**
 * The attribute names of the spans `@compaction/core` records. Stable: a rename
 * is a breaking change. Compaction figures live under `compaction.*`; the
 * summarizer's model and usage follow the OpenTelemetry GenAI conventions (`gen_ai.*`).
 */
export const SPAN_ATTRIBUTES = {
  sessionId: 'compaction.session.id',
  trigger: 'compaction.trigger',
  strategy: 'compaction.strategy',
  fallbacks: 'compaction.fallbacks',
  messagesBefore: 'compaction.messages.before',
  messagesAfter: 'compaction.messages.after',
  messagesSummarized: 'compaction.messages.summarized',
  firstKeptIndex: 'compaction.first_kept_index',
  tokensBefore: 'compaction.tokens.before',
  tokensAfter: 'compaction.tokens.after',
  summaryTokens: 'compaction.summary.tokens',
  splitTurn: 'compaction.split_turn',
  durationMs: 'compaction.duration_ms',
  summarizer: 'compaction.summarizer',
  summaryKind: 'compaction.summary.kind',
  /** Why the quality gate rejected a summarizer's output (absent when accepted). */
  summaryRejected: 'compaction.summary.rejected',
  stateVersion: 'compaction.state.version',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
} as const;

/** Names of the spans `@compaction/core` records. */
export const SPAN_NAMES = {
  /** One compaction, from the decision to the saved state. */
  compaction: 'compaction',
  /** One summarizer call inside a compaction (a fallback makes a second one). */
  summarize: 'compaction.summarize',
  /** Saving the new state to the store. */
  save: 'compaction.save',
} as const;

/** A value an attribute can hold. */
export type SpanAttributeValue = string | number | boolean | string[];

/** Attributes by name; `undefined` values are left out. */
export type SpanAttributes = Record<string, SpanAttributeValue | undefined>;
