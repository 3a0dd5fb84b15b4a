import { dataLine, quoteToolText, unquoteToolText } from '../framing/quote-tool-text.js';
import { type CommandFact, oneLine, type ToolErrorFact } from './summary-facts.js';

/**
 * The line formats of the structured summary, shared by the renderer and the parser so a
 * summary reads back into the facts it was made from.
 */

/** `- Tools used: Bash ×30, Read ×12` */
export const TOOLS_LINE = /^- Tools used: (.+)$/;
/** `- Error in \`Edit\` on \`src/a.ts\` (unresolved): Edit output (quoted data): "…"` */
export const ERROR_LINE =
  /^- Error in `([^`]+)`(?: on `([^`]*)`)? \((resolved|unresolved)\): .*?\(quoted data\): (".*")$/;
/** The format of earlier versions: `- Error in \`Bash\` (a later \`Bash\` call succeeded): …` */
export const LEGACY_ERROR_LINE = /^- Error in `([^`]+)` \((a later|no later) [^)]*\): (.*)$/;
/** `- … and 12 more errors` */
export const MORE_ERRORS_LINE = /^- … and \d+ more errors?/;
/** `- [ ] Last user request: …` (earlier versions) */
export const IN_PROGRESS_LINE = /^- \[ \] Last user request: /;
/** `- Paths are relative to \`/home/me/project/\`` */
export const ROOT_LINE = /^- Paths are relative to `([^`]+)`$/;
/** `- Messages summarized so far: 1,234 (56 in this update)`: an update always says what it added. */
export const SUMMARIZED_LINE = /^- Messages summarized so far: ([\d,]+)/;

/** The line of {@link SUMMARIZED_LINE}. */
export function summarizedLine(total: number, span: number): string {
  return `- Messages summarized so far: ${total.toLocaleString('en-US')} (${span.toLocaleString('en-US')} in this update)`;
}

/** A list bullet, with a task box (`- [x] `, `1. `): what a carried line drops. */
export const BULLET = /^(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?/;

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

/** One failed tool call, its outcome, and the tool's text quoted as data ({@link ERROR_LINE}). */
export function errorLine(error: ToolErrorFact, maxChars: number): string {
  const subject = error.subject ? ` on ${codeSpan(error.subject)}` : '';
  const outcome = error.resolved ? 'resolved' : 'unresolved';
  return `- Error in ${codeSpan(error.tool)}${subject} (${outcome}): ${quoteToolText(`${error.tool} output`, error.text, maxChars)}`;
}

/** The error a line of {@link ERROR_LINE} or {@link LEGACY_ERROR_LINE} holds, or undefined. */
export function parseErrorLine(line: string): ToolErrorFact | undefined {
  const current = ERROR_LINE.exec(line);
  if (current?.[1] && current[3] && current[4]) {
    const text = unquoteToolText(current[4]);
    if (text === undefined) return undefined;
    return {
      tool: current[1],
      ...(current[2] ? { subject: current[2] } : {}),
      resolved: current[3] === 'resolved',
      text,
    };
  }
  const legacy = LEGACY_ERROR_LINE.exec(line);
  if (legacy?.[1] && legacy[2]) return { tool: legacy[1], resolved: legacy[2] === 'a later', text: legacy[3] ?? '' };
  return undefined;
}

/** `text` as inline code on one line ({@link oneLine}); backticks inside become `'` so the span cannot be closed early. */
export function codeSpan(text: string): string {
  return `\`${oneLine(text).replace(/`/g, "'")}\``;
}

/** How much of a tool's text a line quotes. */
export const TOOL_TEXT_CHARS = 200;
/** The prefix of the line that gives the last build/test status. */
export const LAST_CHECK = 'Last build/test: ';
/** How much of a command a line shows. */
export const COMMAND_CHARS = 160;
const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
/**
 * `- \`npm test\` (×3) — Run the tests → failed (exit 1); failing (quoted data): ["a"]; Bash output (quoted data): "…"`
 * and `→ ok (after 2 failed runs; last failure, Bash output (quoted data): "…")`.
 */
export const COMMAND_LINE = new RegExp(
  String.raw`^- (?:${LAST_CHECK})?\`([^\`]*)\`(?: \(×(\d+)\))?(?: — (.*?))? → (ok|failed)(?: \(exit (\d+)\))?` +
    String.raw`(?: \(after (\d+) failed runs?(?:; last failure, (.+?) output \(quoted data\): (${QUOTED}))?\))?` +
    String.raw`(?:; failing \(quoted data\): (\[.*?\]))?(?:; (.+?) output \(quoted data\): (${QUOTED}))?$`,
);

/** One command, its runs and outcome ({@link COMMAND_LINE}); tool text quoted as data. */
export function commandLine(command: CommandFact): string {
  const text = oneLine(command.command);
  const shown = text.length > COMMAND_CHARS ? `${text.slice(0, COMMAND_CHARS)}…` : text;
  const runs = command.runs > 1 ? ` (×${command.runs})` : '';
  const description = command.description ? ` — ${oneLine(command.description).slice(0, 100)}` : '';
  const exit = command.exitCode !== undefined && command.exitCode !== 0 ? ` (exit ${command.exitCode})` : '';
  const outcome = command.ok ? 'ok' : `failed${exit}`;
  const earlier =
    command.ok && command.failures > 0
      ? ` (after ${command.failures} failed run${command.failures > 1 ? 's' : ''}${command.lastFailure ? `; ${quoteToolText(`last failure, ${command.tool} output`, command.lastFailure, TOOL_TEXT_CHARS)}` : ''})`
      : '';
  const failing =
    command.failing.length > 0 ? `; failing (quoted data): ${JSON.stringify(command.failing.map(dataLine))}` : '';
  const output =
    !command.ok && command.output
      ? `; ${quoteToolText(`${command.tool} output`, command.output, TOOL_TEXT_CHARS)}`
      : '';
  return `- ${codeSpan(shown)}${runs}${description} → ${outcome}${earlier}${failing}${output}`;
}

/** The command a line of {@link COMMAND_LINE} holds, or undefined. */
export function parseCommandLine(line: string, isCheck: (command: string) => boolean): CommandFact | undefined {
  const match = COMMAND_LINE.exec(line);
  if (!match?.[1]) return undefined;
  const [, command, runs, description, outcome, exit, failures, failureTool, failure, failing, outputTool, output] =
    match;
  const failingNames = failing ? parseJson(failing) : undefined;
  const lastFailure = failure ? unquoteToolText(failure) : undefined;
  const outputText = output ? unquoteToolText(output) : undefined;
  return {
    tool: outputTool ?? failureTool ?? 'Bash',
    command,
    ...(description ? { description } : {}),
    runs: runs ? Number(runs) : 1,
    ok: outcome === 'ok',
    ...(exit ? { exitCode: Number(exit) } : {}),
    isCheck: isCheck(command),
    failing: Array.isArray(failingNames) ? failingNames.filter((name): name is string => typeof name === 'string') : [],
    ...(outputText !== undefined ? { output: outputText } : {}),
    failures: failures ? Number(failures) : outcome === 'ok' ? 0 : 1,
    ...(lastFailure !== undefined ? { lastFailure } : outputText !== undefined ? { lastFailure: outputText } : {}),
    at: 0,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
