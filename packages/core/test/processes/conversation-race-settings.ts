import type { Message, Summarizer } from '@compaction/core';

/** A small window, so the racing processes compact every few turns (as in r01). */
export const RACE_SETTINGS = { contextWindow: 8000, keepRecentTokens: 1500, reserveTokens: 1000 };

const textOf = (message: Message) => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join(' ');

/**
 * A summarizer that carries every request forward: the previous summary, then
 * the span's first and last message ids and each user request of the span. The
 * structured summarizer lists only the latest requests once there are many
 * (by design), which would hide what this test looks for: a request that a
 * race dropped from the chain of summaries (a summary computed from a stale
 * state and saved over a newer one).
 */
export const raceSummarizer = (): Summarizer => ({
  name: 'race-ledger',
  async summarize({ messages, previousSummary }) {
    const span = `span ${messages[0]?.id ?? '-'}..${messages.at(-1)?.id ?? '-'}`;
    const requests = messages.filter((message) => message.role === 'user').map(textOf);
    return [previousSummary, span, ...requests].filter((line) => line !== undefined && line !== '').join('\n');
  },
});
/** The user's request of one turn: unique, and no request's text contains another's. */
export function requestText(name: string, turn: number): string {
  return `REQ-${name}-${String(turn).padStart(3, '0')}`;
}
