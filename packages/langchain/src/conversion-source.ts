import type { HistorySource, Message } from '@compaction/core';

/**
 * The first `result.length` core messages of a conversion as core's `HistorySource`
 * (`prepare({ history })`). A conversion grows in place on later calls, so the source
 * is fixed at its length now: what it hands out never changes. `since` says how many
 * first messages are those of the source the session was last given (the very same
 * objects, or restored ones proven to be the same message by `sameMessageShape`):
 * the session then reads only what comes after, and with a usage record for the rest
 * it holds the history counted, not loaded, and can answer that the context is the
 * history as it is (`asIs`).
 */
export function conversionSource(result: readonly Message[], since?: HistorySource['since']): HistorySource {
  const length = result.length;
  return {
    length,
    messages: (from) => result.slice(from, length),
    ...(since ? { since } : {}),
  };
}
