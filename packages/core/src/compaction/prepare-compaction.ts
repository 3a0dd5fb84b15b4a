import { InvalidStateError } from '../errors/invalid-state-error.js';
import { isPinned } from '../messages/message-helpers.js';
import type { Message } from '../messages/types.js';
import type { ResolvedSettings } from '../settings/compaction-settings.js';
import { lastGenuineRequest } from '../summarize/framing/harness-text.js';
import type { CompactionState } from './compaction-state.js';
import { findCutPoint } from './find-cut-point.js';
import { prunableToolCallIds as findPrunableToolCallIds } from './prunable-tool-call-ids.js';

/** What a compaction would do, computed without side effects (also the dry run / preview). */
export type CompactionPlan = {
  /** Index of the first message kept verbatim. */
  firstKeptIndex: number;
  /** Messages summarized before this compaction (`previous` covers `0 … startIndex - 1`). */
  startIndex: number;
  /** Messages for the history summary (new since `previous`, pinned ones excluded). */
  historyMessages: Message[];
  /** The summarized prefix of a split turn (empty for a clean cut). */
  turnPrefixMessages: Message[];
  /** Messages that stay verbatim. */
  keptMessages: Message[];
  isSplitTurn: boolean;
  turnStartIndex: number;
  /** The summary to update, when there is a previous compaction. */
  previousSummary?: string;
  /** Tool calls whose outputs the cheap pre-pass would clear (older than the kept range). */
  prunableToolCallIds: string[];
  /** The most recent genuine user request (harness-injected text is not one), carried verbatim into the summary. */
  lastUserRequest?: string;
};

export type PrepareCompactionOptions = {
  countTokens: (message: Message) => number;
  /** Emergency mode (see `findCutPoint`). @default false */
  force?: boolean;
  /** Overrides `settings.keepRecentTokens` (manual `/compact`, overflow recovery). */
  keepRecentTokens?: number;
};

/** Index of the first message the previous state keeps, or 0 without one. */
export function keptStartIndex(messages: readonly Message[], previous: CompactionState | undefined): number {
  if (!previous) return 0;
  const index = messages.findIndex((message) => message.id === previous.firstKeptMessageId);
  if (index < 0) {
    throw new InvalidStateError({
      problem: `firstKeptMessageId "${previous.firstKeptMessageId}" is not in the history; the state belongs to another conversation or branch`,
    });
  }
  return index;
}

/**
 * Plans a compaction of `messages` given the previous state: where to cut,
 * what the history summary and a split turn's prefix summary cover, what is
 * kept. Returns undefined when there is nothing to compact (too few messages,
 * or no cut that leaves something to summarize). Pure.
 */
export function prepareCompaction(
  messages: readonly Message[],
  previous: CompactionState | undefined,
  settings: ResolvedSettings,
  options: PrepareCompactionOptions,
): CompactionPlan | undefined {
  const startIndex = keptStartIndex(messages, previous);
  if (!options.force && messages.length < settings.minMessages) return undefined;
  const cut = findCutPoint(messages, {
    countTokens: options.countTokens,
    keepRecentTokens: options.keepRecentTokens ?? settings.keepRecentTokens,
    ...(settings.keepRecentMessages !== undefined && options.keepRecentTokens === undefined
      ? { keepRecentMessages: settings.keepRecentMessages }
      : {}),
    splitTurnMinMessages: settings.splitTurnMinMessages,
    startIndex,
    force: options.force ?? false,
  });
  if (!cut) return undefined;

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptIndex;
  const historyMessages = messages.slice(startIndex, historyEnd).filter((message) => !isPinned(message));
  const turnPrefixMessages = cut.isSplitTurn
    ? messages.slice(cut.turnStartIndex, cut.firstKeptIndex).filter((message) => !isPinned(message))
    : [];
  if (historyMessages.length === 0 && turnPrefixMessages.length === 0) return undefined;

  // The prune rule (pinned and protected outputs, reused ids) lives in prunable-tool-call-ids.ts.
  const prunableToolCallIds = findPrunableToolCallIds(messages, {
    startIndex,
    endIndex: cut.firstKeptIndex,
    alreadyPruned: new Set(previous?.prunedToolCallIds ?? []),
    protectedTools: settings.protectedTools ?? [],
  });

  const plan: CompactionPlan = {
    firstKeptIndex: cut.firstKeptIndex,
    startIndex,
    historyMessages,
    turnPrefixMessages,
    keptMessages: messages.slice(cut.firstKeptIndex),
    isSplitTurn: cut.isSplitTurn,
    turnStartIndex: cut.turnStartIndex,
    prunableToolCallIds,
  };
  if (previous?.summary) plan.previousSummary = previous.summary;
  // The user's own last words: a harness's injected text (`<task-notification>`, …) is not a request.
  const request = lastGenuineRequest(messages);
  if (request !== undefined) plan.lastUserRequest = request;
  return plan;
}
