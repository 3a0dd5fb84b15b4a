/** The `##` headings every `history` summary must hold (LLM and structured alike). */
export const HISTORY_SUMMARY_HEADINGS = [
  'Goal',
  'Constraints & Preferences',
  'Progress',
  'Key Decisions',
  'Next Steps',
  'Critical Context',
] as const;

/** The lighter requirement of a `turn-prefix` summary: what the turn asked for. */
export const TURN_PREFIX_SUMMARY_HEADINGS = ['Turn Request'] as const;

/**
 * The headings of a markdown text, normalized for comparison: lower case, `and` read as
 * `&`, trailing `:` and emphasis dropped.
 */
export function markdownHeadings(text: string): Set<string> {
  const headings = new Set<string>();
  for (const match of text.matchAll(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    if (match[1]) headings.add(normalizeHeading(match[1]));
  }
  return headings;
}

/** A heading in the form {@link markdownHeadings} returns. */
export function normalizeHeading(heading: string): string {
  return heading
    .replace(/[*_`]/g, '')
    .replace(/:\s*$/, '')
    .replace(/\s+and\s+/gi, ' & ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
