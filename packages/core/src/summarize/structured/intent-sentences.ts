import { oneLine } from './summary-facts.js';

/**
 * A sentence in which the assistant says what it will do, what it decided, or what it
 * found: "I'll add X to Y", "Let me check…", "Now update…", "The root cause is…",
 * "…instead of…", "…because…".
 */
const INTENT =
  /\b(?:I'll|I will|I'm going to|I am going to|I need to|we need to|Let me|Let's|Now (?:I|let|add|update|fix|run|write|create|remove|check|move)|Next,? |I decided|decided to|instead of|rather than|because|so that|root cause|the (?:fix|issue|problem|cause|bug) (?:is|was)|the plan is|going with|switch(?:ed)? to|chose)\b/i;
/** Sentences that speak to the user ("let me know if…", "would you like…") are not intents. */
const ADDRESS = /\b(?:would you like|do you want|shall i|should i|let me know|feel free)\b/i;
const SENTENCE_END = /(?<=[.!?:])\s+(?=[A-Z`*"'([])|\n+/;
const MAX_CHARS = 240;

/**
 * The sentences of an assistant's text that state an intent or a decision, in order, each on
 * one line and cut to 240 characters. Code blocks and sentences that speak to the user are skipped.
 */
export function intentSentences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, '\n');
  const sentences: string[] = [];
  for (const raw of prose.split(SENTENCE_END)) {
    const sentence = oneLine(raw.replace(/^[-*#>\d.)\s]+/, ''));
    if (sentence.length < 20 || !INTENT.test(sentence) || ADDRESS.test(sentence)) continue;
    sentences.push(sentence.length > MAX_CHARS ? `${sentence.slice(0, MAX_CHARS).trimEnd()}…` : sentence);
  }
  return sentences;
}
