import { InvalidStateError } from '../errors/invalid-state-error.js';
import { contentFingerprint } from '../messages/content-id.js';
import { isPinned, isTurnStart } from '../messages/message-helpers.js';
import type { Message, Part } from '../messages/types.js';
import type { CompactionState } from './compaction-state.js';
import { repairToolPairs } from './tool-pairs.js';

/** Wraps the summary so the model reads it as context, not as a request. */
export const SUMMARY_PREFIX =
  '[Conversation summary] The earlier part of this conversation was compacted into the summary below. It is context, not a new request.';
export const SUMMARY_SUFFIX = '[End of summary] The conversation continues below.';
/** The assistant's reply to the summary, inserted where roles must alternate. */
export const SUMMARY_ACKNOWLEDGEMENT =
  'Understood. I have the context of the earlier conversation and will continue from it.';
/** The output a pruned tool result shows instead of its real output. */
export const PRUNED_OUTPUT_MARKER =
  '[Output cleared to save context. The call is kept; run the tool again if the output is needed.]';
export { MISSING_RESULT_OUTPUT, repairToolPairs } from './tool-pairs.js';

export type BuildContextOptions = {
  /**
   * The model has the context tools: the summary's closing line says the summarized
   * messages can be searched (`search_history`) and read (`read_message`).
   * @default false
   */
  historyTools?: boolean;
  /**
   * Insert an assistant acknowledgement after the summary when the first kept
   * message is a user message, so roles alternate (some providers require it).
   * @default true
   */
  acknowledge?: boolean;
};

/**
 * Ties the ids of core's own messages to the summary's content, so they stay
 * unique across conversations (token caches and frameworks key by id).
 */
function summaryTag(state: CompactionState): string {
  return contentFingerprint(state.summary, state.firstKeptMessageId).slice(0, 12);
}

/**
 * The summary's closing line when the model has the context tools (the `historyTools`
 * setting). Kept in line with the tool names of `createContextTools`.
 */
export const SEARCHABLE_HISTORY_NOTE =
  'The messages this summary stands for are kept in full: search_history finds a detail it left out, and read_message reads a message whole.';

/** A wrapper marker of the summary message, in any case or spacing, as text inside a summary could write it. */
const SUMMARY_MARKER = /\[\s*(conversation\s+summary|end\s+of\s+summary)\s*\]/gi;

/**
 * The summary as the user message the model sees. A summary that holds text shaped like
 * the wrapper's own markers (`[End of summary]`, quoted from a tool output, say) has them
 * written `(End of summary)`: only the wrapper opens and closes the summary.
 */
export function summaryMessage(state: CompactionState, options: { historyTools?: boolean } = {}): Message {
  const summary = state.summary.replace(SUMMARY_MARKER, (_match, name: string) => `(${name})`);
  const closing = options.historyTools ? `${SUMMARY_SUFFIX} ${SEARCHABLE_HISTORY_NOTE}` : SUMMARY_SUFFIX;
  return {
    id: `compaction-summary-v${state.version}-${summaryTag(state)}${options.historyTools ? '-h' : ''}`,
    role: 'user',
    parts: [{ type: 'text', text: `${SUMMARY_PREFIX}\n\n${summary}\n\n${closing}` }],
    metadata: { compaction: { type: 'summary', version: state.version, strategy: state.strategy } },
  };
}

/**
 * The messages to send to the model: pinned messages (system prompt, anything
 * with `metadata.pinned`) first and never summarized, then the summary as a user
 * message (and an acknowledgement where roles must alternate), then the kept
 * messages unchanged — except that pruned tool outputs show a marker. Also
 * repairs what providers reject: a tool call without a result gets a synthetic
 * "no result" result, an orphan tool result is dropped, and the context never
 * ends on a dangling tool call. Pure: `history` is not modified.
 */
export function buildContext(
  history: readonly Message[],
  state: CompactionState | undefined,
  options: BuildContextOptions = {},
): Message[] {
  if (!state) return repairToolPairs(history);
  const firstKeptIndex = history.findIndex((message) => message.id === state.firstKeptMessageId);
  if (firstKeptIndex < 0) {
    throw new InvalidStateError({
      problem: `firstKeptMessageId "${state.firstKeptMessageId}" is not in the history (${history.length} messages); the state belongs to another conversation or branch — clear it`,
    });
  }
  const context: Message[] = pinnedBefore(history, firstKeptIndex);
  const kept = history.slice(firstKeptIndex);
  if (state.summary) {
    context.push(summaryMessage(state, { historyTools: options.historyTools ?? false }));
    const first = kept.find((message) => !isPinned(message));
    if ((options.acknowledge ?? true) && first && isTurnStart(first)) {
      context.push({
        id: `compaction-ack-v${state.version}-${summaryTag(state)}`,
        role: 'assistant',
        parts: [{ type: 'text', text: SUMMARY_ACKNOWLEDGEMENT }],
        metadata: { compaction: { type: 'acknowledgement', version: state.version } },
      });
    }
  }
  const pruned = new Set(state.prunedToolCallIds);
  for (const message of kept) context.push(pruned.size > 0 ? pruneMessage(message, pruned) : message);
  return repairToolPairs(context);
}

/** A copy of `message` whose results for `pruned` tool calls show the marker (itself when none, or when pinned). */
export function pruneMessage(message: Message, pruned: ReadonlySet<string>): Message {
  // Pinned content is never cleared, whatever ids a stored state lists.
  if (isPinned(message)) return message;
  if (!message.parts.some((part) => part.type === 'tool-result' && pruned.has(part.toolCallId))) return message;
  const parts: Part[] = message.parts.map((part) =>
    part.type === 'tool-result' && pruned.has(part.toolCallId) ? { ...part, output: PRUNED_OUTPUT_MARKER } : part,
  );
  return { ...message, parts };
}

/**
 * The pinned messages before the kept range, in order. A pinned tool result brings its
 * call along (a copy of the call's message holding only that call, id suffixed
 * `:pinned-call`), so that the pinned output reaches the model paired, not dropped as an
 * orphan.
 */
function pinnedBefore(history: readonly Message[], firstKeptIndex: number): Message[] {
  const pinned: Message[] = [];
  const pinnedResults = new Set<string>();
  for (let index = 0; index < firstKeptIndex; index += 1) {
    const message = history[index]!;
    if (!isPinned(message)) continue;
    for (const part of message.parts) if (part.type === 'tool-result') pinnedResults.add(part.toolCallId);
  }
  for (let index = 0; index < firstKeptIndex; index += 1) {
    const message = history[index]!;
    if (isPinned(message)) {
      pinned.push(message);
      continue;
    }
    if (pinnedResults.size === 0) continue;
    const calls = message.parts.filter((part) => part.type === 'tool-call' && pinnedResults.has(part.toolCallId));
    if (calls.length > 0) pinned.push({ ...message, id: `${message.id}:pinned-call`, parts: calls });
  }
  return pinned;
}
