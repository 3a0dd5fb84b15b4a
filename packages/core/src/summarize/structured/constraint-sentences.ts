import { oneLine } from './summary-facts.js';

/**
 * A sentence in which the user sets a constraint or states a preference: "must", "don't",
 * "never", "always", "only", "without", "instead", "prefer", "avoid", "make sure", "keep".
 */
const CONSTRAINT =
  /\b(?:must|mustn't|must not|don't|do not|never|always|only|without|instead|prefer|rather|avoid|make sure|ensure|keep|no longer|should not|shouldn't|not allowed)\b/i;
const SENTENCE_END = /(?<=[.!?;])\s+|\n+/;
const MIN_CHARS = 12;
const MAX_CHARS = 240;

/**
 * The sentences of a user's request that set a constraint or a preference, in order, each on
 * one line and cut to 240 characters. Code blocks are skipped.
 *
 * @example
 * ```ts
 * constraintSentences('Add the flag. Do not touch the public API.'); // ['Do not touch the public API.']
 * ```
 */
export function constraintSentences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, '\n');
  const sentences: string[] = [];
  for (const raw of prose.split(SENTENCE_END)) {
    const sentence = oneLine(raw.replace(/^[-*#>\d.)\s]+/, ''));
    if (sentence.length < MIN_CHARS || !CONSTRAINT.test(sentence)) continue;
    sentences.push(sentence.length > MAX_CHARS ? `${sentence.slice(0, MAX_CHARS).trimEnd()}…` : sentence);
  }
  return sentences;
}
