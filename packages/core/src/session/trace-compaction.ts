import type { TokenCounter } from '../tokens/token-counter.js';
import { SPAN_ATTRIBUTES, SPAN_NAMES, type SpanAttributes } from '../tracing/span-attributes.js';
import { traceSpan } from '../tracing/trace-span.js';
import type { ConversationState } from './conversation-state.js';
import type { CompactionRunner } from './run-compaction.js';
import type { SessionEvents } from './session-events.js';
import type { SessionPersistence } from './session-persistence.js';
import type { CompactionEndEvent } from './types.js';

/** What {@link compactionTracing} needs of the session. */
export type CompactionTracingOptions = {
  sessionId: string;
  events: SessionEvents;
  conversation: ConversationState;
  /** Counts the summary's tokens for `compaction.summary.tokens`. */
  counter: TokenCounter;
};

/**
 * OpenTelemetry spans for a session's compactions (when `@opentelemetry/api` is
 * installed): each compaction — a manual or overflow attempt, or an automatic one with
 * its escalation — is a `compaction` span with the figures of its `compaction:end`
 * (or the message of its `compaction:error`, as an error status); each summarizer
 * call inside is a `compaction.summarize` child (see `summarizeWithFallback`), and
 * saving the new state a `compaction.save` child. Wraps the session's runner and
 * persistence.
 */
export function compactionTracing(options: CompactionTracingOptions): {
  runner(runner: CompactionRunner): CompactionRunner;
  persistence(persistence: SessionPersistence): SessionPersistence;
} {
  const { sessionId, events, conversation, counter } = options;
  /** Compactions running now (single flight: 0 or 1); a save is traced only inside one. */
  let active = 0;

  async function traced<T>(trigger: string, run: () => Promise<T>): Promise<T> {
    const attributes = { [SPAN_ATTRIBUTES.sessionId]: sessionId, [SPAN_ATTRIBUTES.trigger]: trigger };
    return traceSpan(SPAN_NAMES.compaction, attributes, async (span) => {
      // An automatic compaction may fail once and succeed on its escalation: the last outcome counts.
      let failure: string | undefined;
      const stop = !span.recording
        ? () => {}
        : events.on((event) => {
            if (event.type === 'compaction:error') {
              failure = event.message;
              span.set({
                [SPAN_ATTRIBUTES.tokensBefore]: event.tokensBefore,
                [SPAN_ATTRIBUTES.tokensAfter]: event.tokensAfter,
              });
            } else if (event.type === 'compaction:end') {
              failure = undefined;
              span.set(endAttributes(event));
            }
          });
      active += 1;
      try {
        return await run();
      } finally {
        active -= 1;
        stop();
        if (failure !== undefined) span.fail(failure);
      }
    });
  }

  function endAttributes(event: CompactionEndEvent): SpanAttributes {
    const { result } = event;
    const firstKeptIndex = conversation.history.findIndex((message) => message.id === result.state.firstKeptMessageId);
    return {
      [SPAN_ATTRIBUTES.strategy]: event.strategy,
      [SPAN_ATTRIBUTES.fallbacks]: event.fallbacks.map((fallback) => fallback.strategy),
      [SPAN_ATTRIBUTES.messagesBefore]: event.messagesBefore,
      [SPAN_ATTRIBUTES.messagesAfter]: event.messagesAfter,
      [SPAN_ATTRIBUTES.messagesSummarized]: event.messagesSummarized,
      [SPAN_ATTRIBUTES.firstKeptIndex]: firstKeptIndex >= 0 ? firstKeptIndex : undefined,
      [SPAN_ATTRIBUTES.tokensBefore]: event.tokensBefore,
      [SPAN_ATTRIBUTES.tokensAfter]: event.tokensAfter,
      [SPAN_ATTRIBUTES.summaryTokens]: counter.countText(result.state.summary),
      [SPAN_ATTRIBUTES.splitTurn]: result.isSplitTurn,
      [SPAN_ATTRIBUTES.stateVersion]: result.state.version,
      [SPAN_ATTRIBUTES.durationMs]: event.durationMs,
    };
  }

  return {
    runner: (runner) => ({
      attempt: (request) => traced(request.trigger, () => runner.attempt(request)),
      autoCompact: (policy, signal) => traced('auto', () => runner.autoCompact(policy, signal)),
    }),
    persistence: (persistence) => ({
      ...persistence,
      saveRecord: (record) =>
        active > 0 && record.state !== undefined && record.state !== conversation.record.state
          ? traceSpan(
              SPAN_NAMES.save,
              { [SPAN_ATTRIBUTES.sessionId]: sessionId, [SPAN_ATTRIBUTES.stateVersion]: record.state.version },
              () => persistence.saveRecord(record),
            )
          : persistence.saveRecord(record),
    }),
  };
}
