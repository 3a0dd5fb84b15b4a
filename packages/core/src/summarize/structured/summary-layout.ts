import type { FileListing } from '../file-operations/condense-file-operations.js';
import { type SummaryFacts, shorten } from './summary-facts.js';
import type { SummaryItem, SummarySection } from './summary-items.js';

/** What a rendering must hold whatever the budget, from generous to condensed. */
export type RequiredLevel = { requestChars: number; files: FileListing; maxRequests: number };

/** Characters of the goal line (the first request, which the request list holds too). */
export const GOAL_CHARS = 200;

/** The lines of one section, in the order they happened; a continuation line brings its head when the head was not chosen. */
export function sectionLines(
  chosen: readonly SummaryItem[],
  key: SummarySection,
): { text: string; item?: SummaryItem }[] {
  const items = chosen.filter((item) => item.section === key).sort((a, b) => a.order - b.order);
  const written = new Set(items.map((item) => item.text));
  const lines: { text: string; item?: SummaryItem }[] = [];
  for (const item of items) {
    if (item.head !== undefined && !written.has(item.head)) {
      lines.push({ text: item.head });
      written.add(item.head);
    }
    lines.push({ text: item.text, item });
  }
  return lines;
}

/** The requests a level lists (the latest `maxRequests`, each cut to its characters), and how many earlier ones it counts instead. */
export function listedRequests(facts: SummaryFacts, level: RequiredLevel): { unlisted: number; listed: string[] } {
  const listed = facts.requests.slice(Math.max(0, facts.requests.length - level.maxRequests));
  const unlisted = (facts.unlistedRequests ?? 0) + facts.requests.length - listed.length;
  return { unlisted, listed: listed.map((request) => shorten(request, level.requestChars)) };
}

/** The goal line at a level (the first request's opening); undefined when there is none. */
export function goalLine(facts: SummaryFacts, level: RequiredLevel): string | undefined {
  return facts.goal === undefined ? undefined : shorten(facts.goal, Math.min(level.requestChars, GOAL_CHARS));
}
