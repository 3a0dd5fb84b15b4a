import { InvalidStateError } from '../errors/invalid-state-error.js';
import { contentFingerprint } from '../messages/content-id.js';
import { isPinned, isTurnStart } from '../messages/message-helpers.js';
import type { Message, Part, ToolResultPart } from '../messages/types.js';
import type { CompactionState } from './compaction-state.js';

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
/** The result given to a tool call that has none in the context. */
export const MISSING_RESULT_OUTPUT = '[No result: the tool call was interrupted or its result was not recorded.]';

export type BuildContextOptions = {
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

/** The summary as the user message the model sees. */
export function summaryMessage(state: CompactionState): Message {
  return {
    id: `compaction-summary-v${state.version}-${summaryTag(state)}`,
    role: 'user',
    parts: [{ type: 'text', text: `${SUMMARY_PREFIX}\n\n${state.summary}\n\n${SUMMARY_SUFFIX}` }],
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
  const context: Message[] = [];
  for (let index = 0; index < firstKeptIndex; index += 1) {
    if (isPinned(history[index]!)) context.push(history[index]!);
  }
  const kept = history.slice(firstKeptIndex);
  if (state.summary) {
    context.push(summaryMessage(state));
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

/** A copy of `message` whose results for `pruned` tool calls show the marker (itself when none). */
export function pruneMessage(message: Message, pruned: ReadonlySet<string>): Message {
  if (!message.parts.some((part) => part.type === 'tool-result' && pruned.has(part.toolCallId))) return message;
  const parts: Part[] = message.parts.map((part) =>
    part.type === 'tool-result' && pruned.has(part.toolCallId) ? { ...part, output: PRUNED_OUTPUT_MARKER } : part,
  );
  return { ...message, parts };
}

/**
 * Makes tool calls and results pair up: drops results whose call is not in
 * `messages` (and messages left empty by that), and gives every call without a
 * result a synthetic error result right after its message. Returns `messages`
 * itself when nothing needed repair.
 */
export function repairToolPairs(messages: readonly Message[]): Message[] {
  const calls = new Map<string, string>();
  const results = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') calls.set(part.toolCallId, part.toolName);
      else if (part.type === 'tool-result' && calls.has(part.toolCallId)) results.add(part.toolCallId);
    }
  }
  if (results.size === calls.size && !hasOrphanResults(messages, calls)) return messages as Message[];

  const repaired: Message[] = [];
  for (const message of messages) {
    const parts = message.parts.filter((part) => part.type !== 'tool-result' || calls.has(part.toolCallId));
    if (parts.length > 0 || message.parts.length === 0) {
      repaired.push(parts.length === message.parts.length ? message : { ...message, parts });
    }
    const missing: ToolResultPart[] = [];
    for (const part of message.parts) {
      if (part.type === 'tool-call' && !results.has(part.toolCallId)) {
        missing.push({
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: MISSING_RESULT_OUTPUT,
          isError: true,
        });
      }
    }
    if (missing.length > 0) {
      repaired.push({
        id: `${message.id}:missing-results`,
        role: 'tool',
        parts: missing,
        metadata: { compaction: { type: 'synthetic-result' } },
      });
    }
  }
  return repaired;
}

function hasOrphanResults(messages: readonly Message[], calls: ReadonlyMap<string, string>): boolean {
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-result' && !calls.has(part.toolCallId)) return true;
    }
  }
  return false;
}
