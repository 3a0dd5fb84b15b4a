import { quoteToolText } from '../framing/quote-tool-text.js';
import { commandHead } from './command-facts.js';
import {
  codeSpan,
  commandLine,
  errorLine,
  LAST_CHECK,
  TOOL_TEXT_CHARS,
  toolsLine,
} from './structured-summary-lines.js';
import {
  type CommandFact,
  type FileChangeFact,
  type SummaryFacts,
  shorten,
  type ToolErrorFact,
} from './summary-facts.js';

/** Where an item goes in the summary. */
export type SummarySection =
  | 'constraints'
  | 'done'
  | 'inProgress'
  | 'blocked'
  | 'decisions'
  | 'next'
  | 'commands'
  | 'notices'
  | 'earlier';

/**
 * One optional line of a structured summary, with what it is worth: `weight` for its kind
 * (an unresolved error or the next step over a resolved error), `at` for how recent it is
 * (0 oldest, 1 the end of the span). The names it holds add to its worth when no line
 * chosen before holds them (see `selectSummaryItems`).
 */
export type SummaryItem = {
  section: SummarySection;
  text: string;
  order: number;
  weight: number;
  at: number;
  /** The line this one continues (a file's first line): written before it when not chosen itself. */
  head?: string;
  /** The fact the line shows, when an update merges it as a fact rather than carrying the line. */
  fact?: SummaryItemFact;
};

/** What a line is a rendering of: the tools line, an error, a command. */
export type SummaryItemFact =
  | { kind: 'tools' }
  | { kind: 'error'; error: ToolErrorFact }
  | { kind: 'command'; command: CommandFact };

const FIRST_NAMES = 8;
const LAST_STATEMENT_CHARS = 300;
const MORE_NAMES = 12;
const DEFINITIONS_PER_FILE = 6;

/**
 * The optional lines of a summary of `facts`: what each file gained, commands and their
 * outcome, the last build/test status, errors (tool text quoted as data), the assistant's
 * intents and decisions, the todo list, the next step, and lines carried from an earlier
 * summary. Paths under `root` are written relative to it.
 */
export function summaryItems(facts: SummaryFacts, root: string | undefined): SummaryItem[] {
  const items: SummaryItem[] = [];
  const relative = (path: string) =>
    root && path.startsWith(root) && path.length > root.length ? path.slice(root.length) : path;
  if (facts.toolCounts.size > 0)
    items.push({
      section: 'done',
      text: toolsLine(facts.toolCounts),
      order: -2,
      weight: 0.5,
      at: 1,
      fact: { kind: 'tools' },
    });
  for (const file of facts.files) {
    items.push(...fileItems(file, relative(file.path)));
  }

  const lastCheck = [...facts.commands].reverse().find((command) => command.isCheck);
  for (const command of facts.commands) {
    if (command === lastCheck) continue;
    const weight = (command.isCheck ? 1.2 : 0.8) + (command.failures > 0 ? 0.8 : 0);
    items.push({
      section: 'commands',
      text: commandLine(command),
      order: command.at,
      weight,
      at: command.at,
      fact: { kind: 'command', command },
    });
  }
  if (lastCheck) {
    items.push({
      section: lastCheck.ok ? 'done' : 'blocked',
      text: `- ${LAST_CHECK}${commandLine(lastCheck).slice(2)}`,
      order: 2,
      weight: 4,
      at: 1,
      fact: { kind: 'command', command: lastCheck },
    });
  }
  const commandSubjects = new Set(
    facts.commands.map((command) => `${command.tool}\u0000${commandHead(command.command)}`),
  );
  for (const [index, error] of facts.errors.entries()) {
    if (commandSubjects.has(`${error.tool}\u0000${error.subject ?? ''}`)) continue;
    const at = facts.errors.length > 1 ? index / (facts.errors.length - 1) : 1;
    items.push({
      section: error.resolved ? 'done' : 'blocked',
      text: errorLine(error, TOOL_TEXT_CHARS),
      order: 1 + at,
      weight: error.resolved ? 0.4 : 2.5,
      at,
      fact: { kind: 'error', error },
    });
  }

  const intents = [...facts.intents];
  // The next step: the last intent, when the assistant's last words stated it (later work would have done it).
  const next = facts.lastStatement?.hasIntent ? intents.pop() : undefined;
  if (facts.lastStatement) {
    items.push({
      section: 'inProgress',
      text: `- Last assistant message: ${shorten(facts.lastStatement.text, LAST_STATEMENT_CHARS)}`,
      order: 0,
      weight: 2.5,
      at: 1,
    });
  }
  for (const intent of intents)
    items.push({
      section: 'decisions',
      text: `- Assistant: ${intent.text}`,
      order: intent.at,
      weight: 0.3,
      at: intent.at,
    });
  if (next) items.push({ section: 'next', text: `1. Last stated intent: ${next.text}`, order: 0, weight: 3, at: 1 });
  for (const [index, todo] of facts.todos.entries()) {
    const section = todo.status === 'completed' ? 'done' : todo.status === 'in_progress' ? 'inProgress' : 'next';
    const mark = todo.status === 'completed' ? '[x]' : '[ ]';
    items.push({
      section,
      text: `- ${mark} ${todo.text}`,
      order: 3 + index / 1000,
      weight: todo.status === 'completed' ? 0.5 : 3,
      at: 1,
    });
  }
  for (const constraint of facts.constraints) {
    items.push({
      section: 'constraints',
      text: `- User: ${constraint.text}`,
      order: constraint.at,
      weight: 1.5,
      at: constraint.at,
    });
  }
  for (const notice of facts.notices) {
    items.push({
      section: 'notices',
      text: `- ${quoteToolText('harness notice', notice.text, TOOL_TEXT_CHARS)}`,
      order: notice.at,
      weight: 0.3,
      at: notice.at,
    });
  }
  for (const [index, line] of facts.carried.entries()) {
    const at = (0.3 * (index + 1)) / facts.carried.length;
    items.push({ section: 'earlier', text: `- ${line}`, order: index, weight: 0.6, at });
  }
  return items;
}

/** A code-like name as written in a list of names: no spaces in it, so no backticks needed; a backtick becomes `'`. */
function plainName(name: string): string {
  return name.replace(/`/g, "'");
}

function fileItems(file: FileChangeFact, path: string): SummaryItem[] {
  const verb = file.created ? 'Wrote' : 'Edited';
  const times = file.changes > 1 ? ` (×${file.changes})` : '';
  const names = file.added.slice(0, FIRST_NAMES).map(plainName).join(', ');
  const head = `- ${verb} ${codeSpan(path)}${times}${names ? `: adds ${names}` : ''}`;
  const weight = 1.5 + Math.log2(file.changes);
  const items: SummaryItem[] = [{ section: 'done', text: head, order: file.at, weight, at: file.at }];
  for (let start = FIRST_NAMES; start < file.added.length; start += MORE_NAMES) {
    const more = file.added
      .slice(start, start + MORE_NAMES)
      .map(plainName)
      .join(', ');
    items.push({
      section: 'done',
      text: `  - also ${more}`,
      order: file.at + 1e-6 * start,
      weight: 0.2,
      at: file.at,
      head,
    });
  }
  for (const [index, definition] of file.definitions.slice(0, DEFINITIONS_PER_FILE).entries()) {
    items.push({
      section: 'done',
      text: `  - ${codeSpan(definition)}`,
      order: file.at + 1e-3 + 1e-6 * index,
      weight: 0.5,
      at: file.at,
      head,
    });
  }
  return items;
}
