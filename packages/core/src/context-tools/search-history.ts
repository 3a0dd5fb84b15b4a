import type { Message } from '../messages/types.js';
import { createBm25Index } from './bm25-index.js';
import { messageSearchText } from './message-search-text.js';

/** One hit of {@link searchHistory}. */
export type HistorySearchHit = {
  /** The message id, for `read_message`. */
  id: string;
  role: Message['role'];
  /** The message's position in the display history (0 = first). */
  index: number;
  /** BM25 score: higher is a better match. Only comparable within one search. */
  score: number;
  /** The passage around the first matching term, with `…` where it was cut. */
  snippet: string;
};

/** Options of {@link searchHistory}. */
export type SearchHistoryOptions = {
  /** How many hits at most. @default 5 */
  limit?: number;
  /** Characters of each snippet. @default 300 */
  snippetChars?: number;
};

/** The most hits a search returns, whatever `limit` asks for. */
export const MAX_SEARCH_HITS = 20;

/**
 * Ranks `messages` (the summarized part of a display history) by Okapi BM25
 * against `query` and returns the best hits with a snippet each. Messages core
 * inserted itself (summaries, acknowledgements) are not searched.
 */
export function searchHistory(
  messages: readonly Message[],
  query: string,
  options: SearchHistoryOptions = {},
): HistorySearchHit[] {
  const limit = Math.min(MAX_SEARCH_HITS, Math.max(1, Math.floor(options.limit ?? 5)));
  const snippetChars = Math.max(40, Math.floor(options.snippetChars ?? 300));
  const candidates = messages.filter((message) => message.metadata?.compaction === undefined);
  const texts = candidates.map((message) => messageSearchText(message));
  const index = createBm25Index(texts);
  return index.search(query, limit).map((hit) => {
    const message = candidates[hit.index]!;
    return {
      id: message.id,
      role: message.role,
      index: messages.indexOf(message),
      score: Number(hit.score.toFixed(4)),
      snippet: snippetAround(texts[hit.index]!, hit.matched, snippetChars),
    };
  });
}

/** The passage of `text` around the earliest occurrence of any of `terms`. */
export function snippetAround(text: string, terms: readonly string[], chars: number): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const found = lower.indexOf(term);
    if (found !== -1 && (at === -1 || found < at)) at = found;
  }
  const flat = (slice: string) => slice.replace(/\s+/g, ' ').trim();
  if (text.length <= chars) return flat(text);
  const start = Math.max(0, Math.min(at === -1 ? 0 : at - Math.floor(chars / 3), text.length - chars));
  const end = Math.min(text.length, start + chars);
  return `${start > 0 ? '…' : ''}${flat(text.slice(start, end))}${end < text.length ? '…' : ''}`;
}
