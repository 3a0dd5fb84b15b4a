/**
 * The line formats of the structured summary, shared by the renderer and the parser so a
 * summary reads back into the facts it was made from.
 */

/** `- Tools used: Bash ×30, Read ×12` */
export const TOOLS_LINE = /^- Tools used: (.+)$/;
/** `- Error in \`Bash\` (a later \`Bash\` call succeeded): …` / `(no later successful \`Bash\` call)` */
export const ERROR_LINE = /^- Error in `([^`]+)` \((a later|no later) [^)]*\): (.*)$/;
/** `- … and 12 more errors` */
export const MORE_ERRORS_LINE = /^- … and \d+ more errors?/;
/** `- [ ] Last user request: …` */
export const IN_PROGRESS_LINE = /^- \[ \] Last user request: /;
/** A line that only holds a parenthesized placeholder: `- (none)`, `1. (continue …)`. */
export const PLACEHOLDER_LINE = /^(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?\(.*\)\.?$/;

/** `- Tools used: …`, most used first. */
export function toolsLine(toolCounts: Map<string, number>): string {
  const entries = [...toolCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return `- Tools used: ${entries.map(([name, count]) => `${name} ×${count}`).join(', ')}`;
}

/** The `[name, count]` pairs of a tools line's list. */
export function parseToolsLine(list: string): [string, number][] {
  const entries: [string, number][] = [];
  for (const item of list.split(', ')) {
    const match = /^(.+) ×(\d+)$/.exec(item.trim());
    if (match?.[1] && match[2]) entries.push([match[1], Number(match[2])]);
  }
  return entries;
}

/** One failed tool call and its outcome, as {@link ERROR_LINE} reads it back. */
export function errorLine(tool: string, resolved: boolean, text: string): string {
  const outcome = resolved ? `a later \`${tool}\` call succeeded` : `no later successful \`${tool}\` call`;
  return `- Error in \`${tool}\` (${outcome}): ${text}`;
}
