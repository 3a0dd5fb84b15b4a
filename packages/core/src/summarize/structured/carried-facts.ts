import { dataLine } from '../framing/quote-tool-text.js';
import { COMMAND_CHARS, TOOL_TEXT_CHARS } from './structured-summary-lines.js';
import {
  type CommandFact,
  emptySummaryFacts,
  type SummaryFacts,
  shorten,
  type ToolErrorFact,
} from './summary-facts.js';

/**
 * What a structured summary carries into the next update: the facts of what its text shows,
 * bounded as its text is (requests and the goal as listed, tool text cut as quoted, only the
 * lines chosen for the budget). Plain JSON, stored in the state's summary part, so an update
 * merges facts and never reads the text back.
 */
export type CarriedFacts = {
  /** The goal line, as shown. */
  goal?: string;
  /** The listed user requests, oldest first, as shown. */
  requests: string[];
  /** Earlier requests counted instead of listed. */
  unlistedRequests?: number;
  /** `[tool, calls]` of the `Tools used` line, when it was shown. */
  toolCounts: [string, number][];
  /** The errors shown, oldest first (tool text cut as quoted). */
  errors: ToolErrorFact[];
  /** The commands shown, in the order they appear (tool text cut as quoted). */
  commands: CommandFact[];
  /** Every other line shown, labelled with its heading: `(Key Decisions) Assistant: …`. */
  carried: string[];
  /** Messages summarized so far. */
  summarizedMessages: number;
  /** The folder paths are written relative to. */
  root?: string;
};

/** The {@link SummaryFacts} an update starts from when the earlier summary carried `facts`. */
export function loadCarriedFacts(facts: CarriedFacts): SummaryFacts {
  const loaded = emptySummaryFacts();
  if (facts.goal !== undefined) loaded.goal = facts.goal;
  loaded.requests = [...facts.requests];
  if (facts.unlistedRequests) loaded.unlistedRequests = facts.unlistedRequests;
  loaded.listsRequests = true;
  loaded.toolCounts = new Map(facts.toolCounts);
  loaded.errors = facts.errors.map((error) => ({ ...error }));
  loaded.commands = facts.commands.map((command) => ({ ...command, failing: [...command.failing] }));
  loaded.carried = [...facts.carried];
  loaded.summarizedMessages = facts.summarizedMessages;
  if (facts.root !== undefined) loaded.root = facts.root;
  return loaded;
}

/** An error as a summary line shows it: its tool text on one line, cut as quoted. */
export function carriedError(error: ToolErrorFact): ToolErrorFact {
  return {
    tool: error.tool,
    ...(error.subject !== undefined ? { subject: error.subject } : {}),
    resolved: error.resolved,
    text: shorten(dataLine(error.text), TOOL_TEXT_CHARS),
  };
}

/** A command as a summary line shows it: the command and description cut, tool text cut as quoted, no place in a span. */
export function carriedCommand(command: CommandFact): CommandFact {
  const text = dataLine(command.command).replace(/`/g, "'");
  const description = command.description ? dataLine(command.description).slice(0, 100) : '';
  return {
    tool: command.tool,
    command: text.length > COMMAND_CHARS ? `${text.slice(0, COMMAND_CHARS)}…` : text,
    ...(description ? { description } : {}),
    runs: command.runs,
    ok: command.ok,
    ...(command.exitCode !== undefined ? { exitCode: command.exitCode } : {}),
    isCheck: command.isCheck,
    failing: command.failing.map(dataLine),
    ...(command.output !== undefined ? { output: shorten(dataLine(command.output), TOOL_TEXT_CHARS) } : {}),
    failures: command.failures,
    ...(command.lastFailure !== undefined
      ? { lastFailure: shorten(dataLine(command.lastFailure), TOOL_TEXT_CHARS) }
      : {}),
    at: 0,
  };
}
