import { escapeFraming } from './escape-framing.js';
import { type SerializeConversationOptions, serializeConversation } from './serialize-conversation.js';
import type { SummaryPrompts } from './summary-prompts.js';
import type { SummarizeRequest } from './types.js';

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
  const sections: string[] = [];
  const isUpdate = request.kind === 'history' && request.previousSummary?.trim();
  if (isUpdate)
    sections.push(`<previous-summary>\n${escapeFraming(request.previousSummary?.trim() ?? '')}\n</previous-summary>`);
  // A turn prefix is part of the latest turn, whose reasoning is never summarized.
  const options = request.kind === 'turn-prefix' ? { ...serializeOptions, includeReasoning: false } : serializeOptions;
  sections.push(serializeConversation(request.messages, options));
  sections.push(request.kind === 'turn-prefix' ? prompts.turnPrefix : isUpdate ? prompts.update : prompts.initial);
  if (request.instructions?.trim()) {
    sections.push(`Additional focus for this summary, from the user: ${escapeFraming(request.instructions.trim())}`);
  }
  return sections.join('\n\n');
}
