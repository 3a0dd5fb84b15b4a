import { escapeFraming } from '../framing/escape-framing.js';
import { type SerializeConversationOptions, serializeConversation } from '../framing/serialize-conversation.js';
import type { SummarizeRequest } from '../types.js';
import type { SummaryPrompts } from './summary-prompts.js';

/**
 * The user prompt of a summarization call: `<previous-summary>` (for an update), the new
 * messages in `<conversation>`, the instruction for the request's kind, then the optional
 * focus `instructions`. The previous summary and the instructions are escaped like the
 * transcript (`escapeFraming`): the `<previous-summary>` and `<conversation>` tags of the
 * prompt are the only ones, whatever the data holds. Reasoning is never included for a `turn-prefix` request (the latest
 * turn's reasoning is not summarized), whatever `serializeOptions.includeReasoning` says.
 *
 * @example
 * ```ts
 * const prompt = buildSummaryPrompt(request, DEFAULT_PROMPTS);
 * ```
 */
export function buildSummaryPrompt(
  request: Pick<SummarizeRequest, 'kind' | 'messages' | 'previousSummary' | 'instructions'>,
  prompts: SummaryPrompts,
  serializeOptions?: SerializeConversationOptions,
): string {
  // A turn prefix is part of the latest turn, whose reasoning is never summarized.
  const options = request.kind === 'turn-prefix' ? { ...serializeOptions, includeReasoning: false } : serializeOptions;
  // The previous summary is the history's; a turn prefix is summarized on its own.
  const { kind, instructions } = request;
  const previousSummary = kind === 'history' ? request.previousSummary : undefined;
  return buildSummaryPromptFromTranscript(
    {
      kind,
      ...(previousSummary !== undefined ? { previousSummary } : {}),
      ...(instructions !== undefined ? { instructions } : {}),
      transcript: serializeConversation(request.messages, options),
    },
    prompts,
  );
}

/** The text added to the turn-prefix instruction when a long prefix is summarized in parts. */
export const TURN_PREFIX_CONTINUATION_NOTE =
  'The summary inside <previous-summary> tags covers the earlier messages of this same turn prefix: merge it with the messages above into one summary in the format above.';

/**
 * {@link buildSummaryPrompt} for a transcript already serialized (and wrapped in its
 * `<conversation>` tags): how a summarizer sends one chunk of a long span. A `turn-prefix`
 * request with a `previousSummary` (the summary of the prefix's earlier chunks) gets it in
 * `<previous-summary>` tags and {@link TURN_PREFIX_CONTINUATION_NOTE} after its instruction.
 */
export function buildSummaryPromptFromTranscript(
  request: Pick<SummarizeRequest, 'kind' | 'previousSummary' | 'instructions'> & { transcript: string },
  prompts: SummaryPrompts,
): string {
  const sections: string[] = [];
  const previous = request.previousSummary?.trim();
  if (previous) sections.push(`<previous-summary>\n${escapeFraming(previous)}\n</previous-summary>`);
  sections.push(request.transcript);
  if (request.kind === 'turn-prefix') {
    sections.push(previous ? `${prompts.turnPrefix}\n\n${TURN_PREFIX_CONTINUATION_NOTE}` : prompts.turnPrefix);
  } else {
    sections.push(previous ? prompts.update : prompts.initial);
  }
  if (request.instructions?.trim()) {
    sections.push(`Additional focus for this summary, from the user: ${escapeFraming(request.instructions.trim())}`);
  }
  return sections.join('\n\n');
}
