import type { PreviousSummary, SummarizeRequest, SummaryPart } from './types.js';

/** The strategy recorded on a part that came as text, from outside the engine's state. */
export const TEXT_STRATEGY = 'text';

/**
 * The earlier summary a `history` request builds on: `request.previous` as the state holds it,
 * else a `previousSummary` given alone as one opaque `verbatim` part (read, if at all, by the
 * summarizer that needs its lines). Undefined for a `turn-prefix` request or a first summary.
 */
export function previousOf(
  request: Pick<SummarizeRequest, 'kind' | 'previous' | 'previousSummary'>,
): PreviousSummary | undefined {
  if (request?.kind !== 'history') return undefined;
  if (Array.isArray(request.previous?.parts) && request.previous.parts.length > 0) return request.previous;
  const text = typeof request.previousSummary === 'string' ? request.previousSummary : '';
  return text.trim() ? textPreviousSummary(text) : undefined;
}

/** An earlier summary that exists only as text: one opaque `verbatim` part, not read here. */
export function textPreviousSummary(text: string): PreviousSummary {
  const part: SummaryPart = { kind: 'history', strategy: TEXT_STRATEGY, text, verbatim: true };
  return { parts: [part] };
}
