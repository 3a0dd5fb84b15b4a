import type { Message } from '../messages/types.js';
import { type ResolvedSettings, triggerTokens } from '../settings/compaction-settings.js';
import type { CompactionResult } from './compaction-result.js';
import { type CompactionState, carriedSummary } from './compaction-state.js';
import { nextState } from './next-state.js';
import type { CompactionPlan } from './prepare-compaction.js';

/**
 * Clearing old tool outputs replaces summarizing only when it brings the context
 * down to about where a summary would: under twice `keepRecentTokens` (or a
 * quarter of the trigger, if that is more). A shallower cut would only make the
 * context climb back to the trigger sooner, and every call in between re-reads it.
 */
export function pruneTargetTokens(settings: ResolvedSettings): number {
  return Math.max(2 * settings.keepRecentTokens, Math.floor(triggerTokens(settings) / 4));
}

/** What the prune-only step needs besides the plan. */
export type PruneOnlyInput = {
  messages: readonly Message[];
  plan: CompactionPlan;
  previous: CompactionState | undefined;
  settings: ResolvedSettings;
  version: number;
  createdAt: string;
  tokensBefore: number;
  /** Context tokens of `messages` under a state. */
  measure: (state: CompactionState) => number;
};

/**
 * The cheap pre-pass: the previous state plus the plan's prunable tool outputs
 * cleared, no new summary. Returns the result when that alone is enough (under
 * `pruneTargetTokens` and by at least `minReduction`), else undefined.
 */
export function pruneOnly(input: PruneOnlyInput): Omit<CompactionResult, 'trigger'> | undefined {
  const { messages, plan, previous, settings, tokensBefore } = input;
  const state = nextState(
    {
      version: input.version,
      ...carriedSummary(previous),
      firstKeptMessageId: previous?.firstKeptMessageId ?? messages[0]!.id,
      summarizedRange: previous?.summarizedRange ?? { fromIndex: 0, toIndex: -1, messageCount: 0 },
      prunedToolCallIds: [...(previous?.prunedToolCallIds ?? []), ...plan.prunableToolCallIds],
      fileOps: previous?.fileOps ?? { read: [], modified: [] },
      tokensBefore,
      strategy: 'prune',
      createdAt: input.createdAt,
    },
    input.measure,
  );
  const enough =
    state.tokensAfter <= pruneTargetTokens(settings) && state.tokensAfter <= tokensBefore * (1 - settings.minReduction);
  if (!enough) return undefined;
  return {
    state,
    tokensBefore,
    tokensAfter: state.tokensAfter,
    messagesSummarized: 0,
    strategy: 'prune',
    isSplitTurn: false,
    fallbacks: [],
  };
}
