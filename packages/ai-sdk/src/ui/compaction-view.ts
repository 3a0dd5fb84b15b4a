import type { CompactionBoundary, CompactionContextData } from './compaction-data.js';

/** How full the context is: under 75% of the trigger, under the trigger, over it. */
export type ContextLevel = 'low' | 'high' | 'over';

/** The figures of a context usage bar. */
export type ContextUsage = {
  /** Tokens the model would see now. */
  tokens: number;
  /** The context window. */
  window: number;
  /** Where compaction triggers, in tokens. */
  trigger: number;
  /** `tokens / window`, in percent, capped at 100. */
  percent: number;
  /** `trigger / window`, in percent: where to mark the trigger on the bar. */
  triggerPercent: number;
  /** For the bar's colour. */
  level: ContextLevel;
};

/** What {@link compactionView} returns. */
export type CompactionView = {
  /** Index in `messages` of the first message the model sees verbatim; -1 without a boundary. */
  boundaryIndex: number;
  /** The ids of the messages before the boundary (summarized: show them dimmed). None for a `prune` compaction. */
  summarizedIds: ReadonlySet<string>;
  /** How many UI messages the summary stands for. */
  summarizedCount: number;
  /** The compaction the boundary comes from, when it falls in `messages`. */
  boundary: CompactionBoundary | undefined;
  /** The usage bar, when context figures were given. */
  usage: ContextUsage | undefined;
};

/** Share of the trigger from which the bar shows the `high` level. */
export const HIGH_CONTEXT_SHARE = 0.75;

/**
 * For a chat UI, framework-free: given the UI messages (the full history) and the
 * latest compaction data (a `data-compaction` part, or `compaction` of the server's
 * stats) and context figures, which messages are summarized — before the boundary —
 * and the figures of a context usage bar.
 *
 * A boundary whose `firstKeptMessageId` is not among `messages` (another branch,
 * an edited history) gives no boundary rather than a wrong one. A `prune` compaction
 * (old tool outputs cleared, nothing summarized) gives a boundary and no summarized messages.
 *
 * @throws TypeError when `messages` is not an array of messages with string ids, or a figure is not a number.
 * @example
 * ```ts
 * const view = compactionView(messages, { compaction, context });
 * messages.map((m) => <Message key={m.id} dimmed={view.summarizedIds.has(m.id)} />);
 * ```
 */
export function compactionView(
  messages: readonly { id: string }[],
  latest: { compaction?: CompactionBoundary | undefined; context?: CompactionContextData | undefined } = {},
): CompactionView {
  if (!Array.isArray(messages)) throw new TypeError('compactionView: messages must be an array of UI messages');
  for (const [index, message] of messages.entries()) {
    if (typeof message?.id !== 'string') {
      throw new TypeError(`compactionView: messages[${index}] has no string id; pass useChat's messages`);
    }
  }
  const { compaction, context } = latest;
  const keptId = compaction?.firstKeptMessageId;
  const boundaryIndex = keptId === undefined ? -1 : messages.findIndex((message) => message.id === keptId);
  // A `prune` compaction summarizes nothing: old tool outputs are cleared, every message stays.
  const pruned = compaction?.strategy === 'prune';
  const summarized = boundaryIndex < 0 || pruned ? [] : messages.slice(0, boundaryIndex).map((message) => message.id);
  return {
    boundaryIndex,
    summarizedIds: new Set(summarized),
    summarizedCount: summarized.length,
    boundary: boundaryIndex < 0 ? undefined : compaction,
    usage: context === undefined ? undefined : contextUsage(context),
  };
}

/**
 * The usage bar's figures from context data.
 * @throws TypeError when a figure is not a finite number, or the window is not positive.
 */
export function contextUsage(context: CompactionContextData): ContextUsage {
  const { contextTokens: tokens, contextWindow: window, triggerTokens: trigger } = context;
  for (const [name, value] of Object.entries({
    contextTokens: tokens,
    contextWindow: window,
    triggerTokens: trigger,
  })) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`contextUsage: ${name} must be a finite number ≥ 0, got ${String(value)}`);
    }
  }
  if (window === 0) throw new TypeError('contextUsage: contextWindow must be positive, got 0');
  const level: ContextLevel = tokens >= trigger ? 'over' : tokens >= trigger * HIGH_CONTEXT_SHARE ? 'high' : 'low';
  return {
    tokens,
    window,
    trigger,
    percent: Math.min(100, Math.round((tokens / window) * 1000) / 10),
    triggerPercent: Math.min(100, Math.round((trigger / window) * 1000) / 10),
    level,
  };
}
