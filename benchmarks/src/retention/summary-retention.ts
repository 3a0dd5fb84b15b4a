import type { TokenCounter } from '@compaction/core';
import type { SpanFacts } from './span-facts.ts';

/** How many characters of a request must appear in a summary for it to count as kept. */
export const REQUEST_PREFIX_CHARS = 60;

/** How many of a kind of fact a summary keeps, and which it misses. */
export type Kept = { kept: number; total: number; missed: string[] };

/** What one summary keeps of its span. */
export type SummaryRetention = { tokens: number; modified: Kept; read: Kept; requests: Kept };

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function kept(items: readonly string[], isKept: (item: string) => boolean): Kept {
  const missed = items.filter((item) => !isKept(item));
  return { kept: items.length - missed.length, total: items.length, missed };
}

/**
 * What `summary` keeps of `facts`, measured the same way for any summarizer. A path is
 * kept when the summary names it in full or relative to `cwd` (the session's working
 * directory); a request when its first {@link REQUEST_PREFIX_CHARS} characters appear.
 * Runs of whitespace count as one space on both sides, so a request reflowed onto one
 * line still counts. Tokens are counted with `counter`.
 */
export function summaryRetention(
  summary: string,
  facts: SpanFacts,
  options: { counter: TokenCounter; cwd?: string | undefined },
): SummaryRetention {
  const text = collapse(summary);
  const root = options.cwd ? `${options.cwd.replace(/\/+$/, '')}/` : undefined;
  const pathKept = (path: string): boolean =>
    text.includes(path) || (root !== undefined && path.startsWith(root) && text.includes(path.slice(root.length)));
  const requestKept = (request: string): boolean => text.includes(collapse(request).slice(0, REQUEST_PREFIX_CHARS));
  return {
    tokens: options.counter.countText(summary),
    modified: kept(facts.modified, pathKept),
    read: kept(facts.read, pathKept),
    requests: kept(facts.requests, requestKept),
  };
}
