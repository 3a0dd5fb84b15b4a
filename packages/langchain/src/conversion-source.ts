import type { HistorySource, Message } from '@compaction/core';
import type { BaseMessage } from '@langchain/core/messages';
import type { Conversion } from './extend-conversion.js';
import { loadConversion } from './held-conversion.js';

/**
 * The core messages of a LangChain → core conversion as core's `HistorySource`
 * (`prepare({ history })`), fixed at the conversion's length now (it grows in place on
 * later calls: what the source hands out never changes). Lazy: it converts nothing
 * until asked, and messages whose core messages were let go (`releaseConversion`) are
 * converted again from the LangChain messages the conversion holds only when core asks
 * for them (a compaction, a recovery, `history()`, `context()`). `since` says how many
 * first messages are those of the source the session was last given (the very same
 * objects, or restored ones matched to them by `extendToCore`): the session then reads
 * only what comes after, and with a usage record for the rest it holds the history
 * counted, not loaded, and can answer that the context is the history as it is (`asIs`).
 */
export function conversionSource(
  conversion: Conversion<BaseMessage, Message>,
  since?: HistorySource['since'],
): HistorySource {
  const length = conversion.source.length;
  return {
    length,
    messages(from) {
      if (from < (conversion.released ?? 0)) loadConversion(conversion);
      const base = conversion.released ?? 0;
      return conversion.result.slice(from - base, length - base);
    },
    ...(since ? { since } : {}),
  };
}
