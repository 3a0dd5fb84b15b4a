import type { SummaryRejection } from '../../errors/summary-rejected-error.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { removeFileOperationBlocks } from '../file-operations/remove-file-operation-blocks.js';
import { splitLastRequest } from '../framing/split-last-request.js';
import type { GenerateTextResult, SummarizeRequest } from '../types.js';
import {
  HISTORY_SUMMARY_HEADINGS,
  markdownHeadings,
  normalizeHeading,
  TURN_PREFIX_SUMMARY_HEADINGS,
} from './summary-headings.js';

/** What {@link checkSummaryQuality} needs besides the text. */
export type SummaryQualityOptions = {
  kind: SummarizeRequest['kind'];
  /** Tokens of what the summary replaces; the summary must count fewer. */
  replacedTokens: number;
  counter: TokenCounter;
  /** The generation's finish reason; `length` means the output limit cut the text off. */
  finishReason?: GenerateTextResult['finishReason'];
  /**
   * The summary an update replaces. An update whose content adds nothing to it (the
   * previous summary echoed back, reordered or re-spaced) is `stale`: the newly summarized
   * messages would be lost.
   */
  previousSummary?: string | undefined;
};

/** The verdict of {@link checkSummaryQuality}. */
export type SummaryQuality = { ok: true } | { ok: false; reason: SummaryRejection; detail: string };

/** Openings of a chat reply rather than a summary ("Sure, …", "I'll …", "Let me …"). */
const CHAT_OPENING =
  /^(?:sure|certainly|of course|okay|ok|alright|absolutely|great|got it|understood|no problem|happy to|thanks|thank you|i'll|i will|i'm going to|i am going to|i can|let me|let's|here's what i)\b/i;
/** Phrases that speak to the user. */
const ADDRESSES_USER =
  /\b(?:would you like(?: me)? to|do you want me to|shall i|should i (?:go ahead|proceed|continue)|let me know (?:if|when|what|whether)|feel free to)\b/i;
/**
 * A line, anywhere in the summary, where the model speaks as the assistant of the
 * conversation ("Let me run the tests", "Now I'll fix it", "Sure, …"): a continuation
 * dressed in the summary's headings.
 */
const CHAT_LINE =
  /^(?:(?:now|next|then|first|so|okay|ok|alright|great|good|perfect)[,!.]?\s+)?(?:sure|certainly|of course|i'll|i will|i'm going to|i am going to|let me|let's)\b[^\n]*/im;
/** Turn markers of the serialized transcript, echoed back. */
const TRANSCRIPT_MARKER = /\[(?:User|Assistant|Tool call|Tool result|Tool error|System|Reasoning)\]:/;

/**
 * The quality gate every LLM summary passes before it is stored. Rejects a summary that is
 * `empty`, `truncated` (finish reason `length`), `continuation` (reads as a chat reply:
 * opens with "Sure"/"I'll"/"Let me"/"Okay"…, speaks to the user, or holds `[User]:` /
 * `[Assistant]:` transcript markers), `missing-headings` (a `history` summary needs every
 * heading of {@link HISTORY_SUMMARY_HEADINGS}, a `turn-prefix` one only `## Turn Request`),
 * `stale` (an update whose content lines are all in `previousSummary` already: an echo),
 * or `not-smaller` (counts at least `replacedTokens`). A chat reply is caught on any line,
 * not only the first, so a continuation that carries every heading is still one. The carried
 * `Last request from user was: …` tail holds the user's own words and is measured but not
 * scanned for continuation.
 *
 * @example
 * ```ts
 * const quality = checkSummaryQuality(text, { kind: 'history', replacedTokens: 12_000, counter });
 * if (!quality.ok) console.warn(quality.reason, quality.detail);
 * ```
 */
export function checkSummaryQuality(text: string, options: SummaryQualityOptions): SummaryQuality {
  const { body } = splitLastRequest(text);
  return checkSummaryContent(removeFileOperationBlocks(body), text, options);
}

/**
 * {@link checkSummaryQuality} on a summary whose own content is known (a summarizer's draft: what
 * it wrote, without the file blocks and the last-request line the state renders): `content` is
 * judged, `text` (the whole rendered summary) measured. Nothing is split out of `text`.
 */
export function checkSummaryContent(content: string, text: string, options: SummaryQualityOptions): SummaryQuality {
  content = content.trim();
  if (!content) return { ok: false, reason: 'empty', detail: 'the summary has no text' };
  if (options.finishReason === 'length') {
    return { ok: false, reason: 'truncated', detail: 'the output limit cut the summary off (finish reason "length")' };
  }
  const continuation = continuationSign(content);
  if (continuation) return { ok: false, reason: 'continuation', detail: continuation };
  if (options.kind === 'history' && options.previousSummary?.trim()) {
    const stale = staleUpdate(content, options.previousSummary);
    if (stale) return { ok: false, reason: 'stale', detail: stale };
  }
  const required = options.kind === 'turn-prefix' ? TURN_PREFIX_SUMMARY_HEADINGS : HISTORY_SUMMARY_HEADINGS;
  const present = markdownHeadings(content);
  const missing = required.filter((heading) => !present.has(normalizeHeading(heading)));
  if (missing.length > 0) {
    return {
      ok: false,
      reason: 'missing-headings',
      detail: `missing heading${missing.length > 1 ? 's' : ''}: ${missing.map((h) => `## ${h}`).join(', ')}`,
    };
  }
  return notSmaller(options.counter.countText(text), options.replacedTokens) ?? { ok: true };
}

function continuationSign(content: string): string | undefined {
  const firstLine = content.split('\n').find((line) => line.trim()) ?? '';
  const opening = firstLine.replace(/^[\s#>*_"'`-]+/, '');
  const chatOpening = CHAT_OPENING.exec(opening);
  if (chatOpening) return `it opens like a chat reply ("${chatOpening[0]}")`;
  const marker = TRANSCRIPT_MARKER.exec(content);
  if (marker) return `it contains the transcript marker "${marker[0]}"`;
  const address = ADDRESSES_USER.exec(content);
  if (address) return `it addresses the user ("${address[0]}")`;
  for (const line of content.split('\n')) {
    const chat = CHAT_LINE.exec(line.replace(/^[\s#>*_"'`\-\d.)[\]x]+/i, ''));
    if (chat) return `a line speaks as the assistant ("${chat[0].slice(0, 60)}")`;
  }
  return undefined;
}

/** The content lines of a summary, normalized for comparison (no headings, bullets, case or spacing). */
export function summaryContentLines(summary: string): Set<string> {
  const lines = new Set<string>();
  const { body } = splitLastRequest(summary);
  for (const raw of removeFileOperationBlocks(body).split('\n')) {
    if (/^\s{0,3}#{1,6}\s/.test(raw)) continue;
    const line = raw
      .replace(/^(?:\s*(?:[>*+-]|\d{1,3}[.)])\s+)*(?:\[[ x]\]\s*)?/i, '')
      .replace(/[*_`]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase();
    if (line && line !== '(none)' && line !== 'none') lines.add(line);
  }
  return lines;
}

/** Why an update does not account for the new messages: it holds no content line the previous summary lacks. */
function staleUpdate(content: string, previousSummary: string): string | undefined {
  const previous = summaryContentLines(previousSummary);
  for (const line of summaryContentLines(content)) if (!previous.has(line)) return undefined;
  return 'the update holds nothing the previous summary did not: the newly summarized messages are missing';
}

/** How far over the requested size (`request.maxTokens`) a summary may go before it is `oversized`. */
export const OVERSIZED_FACTOR = 4;

/**
 * The verdict on any summarizer's output, before the engine stores it (the fallback step
 * applies it to every summarizer, custom ones included; an LLM summary has also passed
 * {@link checkSummaryQuality}). Rejects a result that is not a string or is blank
 * (`empty`); unless `last` (the last resort of the chain, which must answer), also one
 * that counts at least `request.replacedTokens` (`not-smaller`), more than
 * {@link OVERSIZED_FACTOR} × `request.maxTokens` (`oversized`), or an update whose content
 * is all in `request.previousSummary` already (`stale`).
 *
 * @example
 * ```ts
 * const verdict = judgeSummary(text, request, { last: false });
 * if (!verdict.ok) console.warn(verdict.reason, verdict.detail);
 * ```
 */
export function judgeSummary(
  text: unknown,
  request: Pick<SummarizeRequest, 'kind' | 'messages' | 'previousSummary' | 'replacedTokens' | 'maxTokens' | 'counter'>,
  { last }: { last: boolean },
): SummaryQuality {
  if (typeof text !== 'string' || !text.trim())
    return { ok: false, reason: 'empty', detail: 'returned an empty summary' };
  if (last) return { ok: true };
  const tokens = request.counter.countText(text);
  const larger = notSmaller(tokens, request.replacedTokens);
  if (larger) return larger;
  if (request.maxTokens !== undefined && tokens > OVERSIZED_FACTOR * request.maxTokens) {
    return {
      ok: false,
      reason: 'oversized',
      detail: `the summary has ${tokens} tokens, over ${OVERSIZED_FACTOR} × the ${request.maxTokens} asked for`,
    };
  }
  if (request.kind === 'history' && request.previousSummary?.trim() && request.messages.length > 0) {
    const stale = staleUpdate(text, request.previousSummary);
    if (stale) return { ok: false, reason: 'stale', detail: stale };
  }
  return { ok: true };
}

/** The `not-smaller` verdict when a summary of `tokens` does not shrink the `replacedTokens` it stands for. */
function notSmaller(tokens: number, replacedTokens: number): SummaryQuality | undefined {
  if (tokens < replacedTokens) return undefined;
  return {
    ok: false,
    reason: 'not-smaller',
    detail: `the summary has ${tokens} tokens, not fewer than the ${replacedTokens} it replaces`,
  };
}
