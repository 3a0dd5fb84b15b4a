import { parseMessages } from '../messages/parse-messages.js';
import type { Message } from '../messages/types.js';
import type { UsageRecord } from '../store/session-store.js';
import { type CountedHistory, countedCommonLength } from './counted-history.js';
import { countedPair } from './next-usage-record.js';
import type { HistorySource } from './types.js';

/**
 * Our count (before calibration) of the context of a usage record's call over a history held
 * counted, not loaded (`counted-history.ts`): the record's exact pair plus each message of the
 * stretch after it (`[countedLength, historyLength)`, which calls far below the trigger left
 * uncounted), read from `source` — the source the history was brought in line with, whose first
 * `length` messages do not change while the session holds it (`HistorySource.messages`). What
 * the loaded path's `TokenEstimate.counted(historyLength)` gives over the same messages, read
 * where the counted path still has them: before a branch switch replaces that source.
 *
 * Undefined — nothing to learn from, never a wrong count — when the record has no pair, has a
 * compaction state (a counted history has none), reaches past the history or the source, or
 * when the source no longer hands out the stretch it was brought in line with (another id at a
 * place of the stretch, another last message than the record's, an invalid message, or a read
 * that throws: it broke its word, and the switch goes on without the sample).
 *
 * @param count - the per-message count the session's estimate adds (its token cache's `count`).
 */
export function countedStretch(
  history: CountedHistory,
  source: HistorySource,
  usage: UsageRecord,
  count: (message: Message) => number,
): number | undefined {
  const pair = countedPair(usage);
  const end = usage.historyLength;
  if (!pair || usage.stateVersion !== 0 || end > history.length || end > source.length) return undefined;
  let stretch: readonly Message[];
  try {
    stretch = parseMessages(source.messages(pair.length).slice(0, end - pair.length));
  } catch {
    return undefined;
  }
  if (stretch.length !== end - pair.length || countedCommonLength(history, pair.length, stretch) !== end) {
    return undefined;
  }
  const last = stretch[stretch.length - 1];
  if (last !== undefined && usage.lastMessageId !== undefined && last.id !== usage.lastMessageId) return undefined;
  let tokens = pair.tokens;
  for (const message of stretch) tokens += count(message);
  return tokens;
}
