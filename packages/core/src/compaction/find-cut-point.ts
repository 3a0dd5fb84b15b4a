import { hasToolCalls, isPinned, isTurnStart } from '../messages/message-helpers.js';
import type { Message } from '../messages/types.js';
import { straddledCuts } from './tool-pairs.js';

/** Where to cut: messages before `firstKeptIndex` are summarized, the rest kept verbatim. */
export type CutPoint = {
  /** First message kept verbatim. */
  firstKeptIndex: number;
  /**
   * Start of the turn that holds `firstKeptIndex` (its user message). Equals
   * `firstKeptIndex` for a clean cut at a turn boundary.
   */
  turnStartIndex: number;
  /**
   * The cut falls inside a turn and the turn's summarized prefix
   * (`turnStartIndex` … `firstKeptIndex - 1`) gets its own summary.
   */
  isSplitTurn: boolean;
};

export type FindCutPointOptions = {
  /** Tokens of one message (cached by the caller). */
  countTokens: (message: Message) => number;
  /** Recent tokens to keep verbatim. */
  keepRecentTokens: number;
  /** Alternative: keep the last N messages (takes precedence when set). */
  keepRecentMessages?: number;
  /** A split turn whose prefix has fewer messages is cut cleanly at the turn start. */
  splitTurnMinMessages: number;
  /** Messages before this index are already summarized; the cut must be after it. @default 0 */
  startIndex?: number;
  /**
   * Emergency mode: when the normal rules find no cut, compact all but the last
   * turn, and failing that all but the last 2 messages (tool pairs still intact).
   * @default false
   */
  force?: boolean;
};

/** Kind of message a cut may land before, best first. 0 = not a valid cut. */
function cutRank(message: Message): number {
  if (isPinned(message) || message.role === 'tool') return 0;
  if (isTurnStart(message)) return 3;
  if (message.role === 'assistant') return hasToolCalls(message) ? 1 : 2;
  return 0;
}

/**
 * Finds where to cut `messages` so that about `keepRecentTokens` of recent
 * messages stay verbatim: the nearest valid cut at or before the point where the
 * budget is reached, unless that keeps more than 1.5 × the
 * budget, when the nearest valid cut after it. Valid cuts are user messages and assistant messages;
 * a cut never separates a tool call from its result (so an assistant message
 * with tool calls is a valid cut only together with all its results). A cut at
 * a turn boundary is preferred; a cut inside a turn is a split turn, unless the
 * turn's prefix is shorter than `splitTurnMinMessages` and (with a token budget)
 * holds at most half of `keepRecentTokens`, when the cut moves to the turn start. Returns undefined when no cut leaves anything to summarize.
 */
export function findCutPoint(messages: readonly Message[], options: FindCutPointOptions): CutPoint | undefined {
  const startIndex = options.startIndex ?? 0;
  const end = messages.length;
  if (end - startIndex < 2) return undefined;
  const blocked = straddledCuts(messages);
  const isValid = (index: number) =>
    index > startIndex && index < end && !blocked[index] && cutRank(messages[index]!) > 0;

  const candidate = budgetIndex(messages, options, startIndex);
  // Everything after startIndex fits in the kept budget: nothing needs summarizing.
  if (candidate === undefined) return options.force ? forcedCut(messages, isValid, startIndex) : undefined;
  let cut = -1;
  // Walk back from the budget index to the nearest valid cut (keeps at least the budget)…
  for (let index = candidate; index > startIndex; index -= 1) {
    if (isValid(index)) {
      cut = index;
      break;
    }
  }
  // …or forward when there is none behind it, or when walking back kept far more than the
  // budget (a large message at the budget boundary): a kept range of twice the budget
  // would leave the compaction almost nothing to summarize.
  if (cut < 0 || overshoots(messages, cut, options)) {
    // Never past the model's latest step when moving off an overshoot: the results it has
    // not answered yet (a large tool output, say) are what its next call is for.
    const limit = cut < 0 ? end : latestStepEnd(messages, end);
    for (let index = candidate + 1; index < limit; index += 1) {
      if (isValid(index)) {
        cut = index;
        break;
      }
    }
  }
  if (cut < 0) return options.force ? forcedCut(messages, isValid, startIndex) : undefined;
  return classify(messages, cut, startIndex, options, isValid);
}

/**
 * One past the index of the last assistant message that says or calls anything (a framework
 * may hold an empty one for the reply in progress): a cut after it would drop the latest step.
 */
function latestStepEnd(messages: readonly Message[], end: number): number {
  for (let index = end - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role === 'assistant' && message.parts.length > 0) return index + 1;
  }
  return end;
}

/**
 * How far past `keepRecentTokens` a cut found by walking back may keep before a cut
 * after the budget index is preferred.
 */
const MAX_KEPT_OVERSHOOT = 1.5;

/** Whether the cut at `cut` keeps more than {@link MAX_KEPT_OVERSHOOT} × the token budget. */
function overshoots(messages: readonly Message[], cut: number, options: FindCutPointOptions): boolean {
  if (options.keepRecentMessages !== undefined) return false;
  let kept = 0;
  for (let index = cut; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (!isPinned(message)) kept += options.countTokens(message);
  }
  return kept > options.keepRecentTokens * MAX_KEPT_OVERSHOOT;
}

/** The index at which the kept range reaches its budget, walking back from the end; undefined when it never does. */
function budgetIndex(
  messages: readonly Message[],
  options: FindCutPointOptions,
  startIndex: number,
): number | undefined {
  const end = messages.length;
  if (options.keepRecentMessages !== undefined) {
    const index = end - options.keepRecentMessages;
    return index > startIndex ? index : undefined;
  }
  let kept = 0;
  for (let index = end - 1; index > startIndex; index -= 1) {
    const message = messages[index]!;
    if (!isPinned(message)) kept += options.countTokens(message);
    if (kept >= options.keepRecentTokens) return index;
  }
  return undefined;
}

function turnStartOf(messages: readonly Message[], index: number, startIndex: number): number {
  for (let turnStart = index; turnStart >= startIndex; turnStart -= 1) {
    if (isTurnStart(messages[turnStart]!)) return turnStart;
  }
  return -1;
}

/**
 * Whether a turn's prefix (`turnStart` … `cut - 1`) is cheap enough to keep verbatim
 * instead of summarizing it as a split turn: fewer than `splitTurnMinMessages`
 * messages and, when the budget is in tokens, at most half of `keepRecentTokens`.
 * A short prefix can hold a large tool output (one step reading four files): keeping
 * it would put the whole turn in the kept range, above the trigger, and no summary of
 * the older messages could shrink the context.
 */
function isCheapPrefix(messages: readonly Message[], turnStart: number, cut: number, options: FindCutPointOptions) {
  if (cut - turnStart >= options.splitTurnMinMessages) return false;
  if (options.keepRecentMessages !== undefined) return true;
  let tokens = 0;
  for (let index = turnStart; index < cut; index += 1) {
    const message = messages[index]!;
    if (!isPinned(message)) tokens += options.countTokens(message);
  }
  return tokens <= options.keepRecentTokens / 2;
}

function classify(
  messages: readonly Message[],
  cut: number,
  startIndex: number,
  options: FindCutPointOptions,
  isValid: (index: number) => boolean,
): CutPoint {
  const turnStart = turnStartOf(messages, cut, startIndex);
  if (turnStart === cut) return { firstKeptIndex: cut, turnStartIndex: cut, isSplitTurn: false };
  // The turn began in the already-summarized span (or there is no user message):
  // what is summarized now simply extends the history summary.
  if (turnStart <= startIndex) return { firstKeptIndex: cut, turnStartIndex: cut, isSplitTurn: false };
  if (isValid(turnStart) && isCheapPrefix(messages, turnStart, cut, options)) {
    return { firstKeptIndex: turnStart, turnStartIndex: turnStart, isSplitTurn: false };
  }
  return { firstKeptIndex: cut, turnStartIndex: turnStart, isSplitTurn: true };
}

/** Emergency cut: all but the last turn, else all but the last 2 messages (pairs kept). */
function forcedCut(
  messages: readonly Message[],
  isValid: (index: number) => boolean,
  startIndex: number,
): CutPoint | undefined {
  const lastTurn = turnStartOf(messages, messages.length - 1, startIndex);
  if (lastTurn > startIndex && isValid(lastTurn)) {
    return { firstKeptIndex: lastTurn, turnStartIndex: lastTurn, isSplitTurn: false };
  }
  for (let index = messages.length - 2; index > startIndex; index -= 1) {
    if (isValid(index)) return { firstKeptIndex: index, turnStartIndex: index, isSplitTurn: false };
  }
  return undefined;
}
