import { quoteToolText } from '../framing/quote-tool-text.js';
import { oneLine, type SummaryFacts, shorten } from './summary-facts.js';

/** How many matching lines a focus section lists at most. */
export const FOCUS_LINE_LIMIT = 3;

/**
 * The `### Focus` section a deterministic summary gets for a manual compaction's
 * focus (`/compact focus on the parser bug`): the instruction itself, then the
 * most recent requests, statements and errors that mention any of its words
 * (four letters or more), so what the user asked to keep leads the context.
 * An error's text came from a tool: it is quoted as data, labelled with the tool.
 */
export function focusLines(facts: SummaryFacts, instructions: string): string[] {
  const keywords = instructions
    .toLowerCase()
    .split(/[^\p{L}\p{N}_./-]+/u)
    .filter((word) => word.length >= 4);
  const pool: { text: string; line: () => string }[] = [
    ...facts.requests.map((text) => ({ text, line: () => `- ${shorten(oneLine(text), 160)}` })),
    ...facts.errors.map((error) => ({
      text: error.text,
      line: () => `- ${quoteToolText(`${error.tool} error`, error.text, 160)}`,
    })),
    ...facts.statements.map((text) => ({ text, line: () => `- ${shorten(oneLine(text), 160)}` })),
  ];
  const matches = pool.filter(({ text }) => keywords.some((keyword) => text.toLowerCase().includes(keyword)));
  const listed = matches.slice(Math.max(0, matches.length - FOCUS_LINE_LIMIT)).map(({ line }) => line());
  return [
    `### Focus: ${shorten(oneLine(instructions), 200)}`,
    ...(listed.length > 0 ? listed : ['- (nothing in the summarized messages mentions it)']),
  ];
}
