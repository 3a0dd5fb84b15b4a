import type { FileOperations } from '../types.js';

/** A failed tool call, and whether a later call of the same tool (on the same subject) succeeded. */
export type ToolErrorFact = {
  tool: string;
  /** What failed, when known: the command (`mix test`) or the file. */
  subject?: string;
  /** The tool's own text: rendered only as quoted data, never as the summary's words. */
  text: string;
  resolved: boolean;
};

/** What the span did to one file: created or edited, and the names its new text brought in. */
export type FileChangeFact = {
  path: string;
  /** Written whole (`Write`, `create`, a patch's `Add File`) rather than edited. */
  created: boolean;
  /** Calls that changed it. */
  changes: number;
  /** Code-like names in the new text that the replaced text did not hold, most recent change first. */
  added: string[];
  /** Short definition lines of the new text (`def close_review(…)`, `export function x(`), most recent first. */
  definitions: string[];
  /** Where in the span it last changed, 0 (start) to 1 (end). */
  at: number;
};

/** A command the agent ran, with the outcome of its latest run. */
export type CommandFact = {
  tool: string;
  command: string;
  /** The agent's own description of it (Claude Code's `Bash.description`). */
  description?: string;
  runs: number;
  ok: boolean;
  /** From `Exit code N` at the start of the output, when present. */
  exitCode?: number;
  /** A build, test, lint or type check. */
  isCheck: boolean;
  /** Names of failing tests or checks read from the output of a failed run. */
  failing: string[];
  /** The line of a failed run's output that says what failed (tool text: quoted when rendered). */
  output?: string;
  /** Runs that failed, the latest one included when it failed. */
  failures: number;
  /** What the most recent failed run said, kept after a later run succeeds (tool text). */
  lastFailure?: string;
  /** Where in the span it last ran, 0 to 1. */
  at: number;
};

/** One entry of the agent's todo list (Claude Code `TodoWrite`, Codex `update_plan`, …). */
export type TodoFact = { text: string; status: 'pending' | 'in_progress' | 'completed' };

/** A sentence in which the assistant said what it will do or decided, and where, 0 to 1. */
export type StatementFact = { text: string; at: number };

/**
 * What the deterministic summaries hold, gathered from messages ({@link collectSummaryFacts}),
 * loaded from the facts an earlier summary carried (`loadCarriedFacts`), or read from a summary
 * that exists only as text ({@link parseSummaryFacts}).
 */
export type SummaryFacts = {
  /** What the user is trying to do: the earliest genuine request known. */
  goal?: string;
  /** Every genuine user request, one line each, oldest first, without repeats. */
  requests: string[];
  /** Earlier requests a condensed summary counted instead of listing (they came before `requests`). */
  unlistedRequests?: number;
  /** Read back from a summary that has a User Requests list (a structured one), even an empty list. */
  listsRequests?: boolean;
  /** The most recent genuine user request, verbatim. */
  lastRequest?: string;
  /** Tool name → number of calls. */
  toolCounts: Map<string, number>;
  /** Failed tool calls, oldest first. */
  errors: ToolErrorFact[];
  /** Tools with at least one successful result. */
  succeededTools: Set<string>;
  /** `tool\u0000subject` of every successful call (resolves earlier errors on the same subject). */
  succeededSubjects: Set<string>;
  /** What the assistant said, one line a message, oldest first (for a manual compaction's focus). */
  statements: string[];
  /** The assistant's sentences of intent and decision, with their place in the span (empty when read back). */
  intents: StatementFact[];
  /** Sentences of the user's requests that set a constraint or a preference, oldest first. */
  constraints: StatementFact[];
  /** Messages summarized so far, this span included (an update adds the earlier summary's count). */
  summarizedMessages: number;
  /** Messages of the span being summarized now. */
  spanMessages: number;
  /** Text a harness injected as user messages (task notices, reminders), one line each: data, never requests. */
  notices: StatementFact[];
  /** Where the span stopped: the assistant's last text, one line, and whether intents came from it. */
  lastStatement?: StatementFact & { hasIntent: boolean };
  /** Files the span changed, in the order they last changed. */
  files: FileChangeFact[];
  /** Commands run, in the order they last ran. */
  commands: CommandFact[];
  /** The latest todo list the agent wrote (empty when it kept none). */
  todos: TodoFact[];
  /** Code-like names the user or the assistant wrote in their own text (they weigh more when filling the budget). */
  mentioned: Set<string>;
  /** The folder the summary writes paths relative to (read back from an earlier summary). */
  root?: string;
  /** Lines of an earlier summary that have no place of their own, kept as they were, oldest first. */
  carried: string[];
  fileOps: FileOperations;
};

/** An empty {@link SummaryFacts}. */
export function emptySummaryFacts(): SummaryFacts {
  return {
    requests: [],
    toolCounts: new Map(),
    errors: [],
    succeededTools: new Set(),
    succeededSubjects: new Set(),
    statements: [],
    intents: [],
    summarizedMessages: 0,
    spanMessages: 0,
    constraints: [],
    notices: [],
    files: [],
    commands: [],
    todos: [],
    mentioned: new Set(),
    carried: [],
    fileOps: { read: [], modified: [] },
  };
}

/**
 * `text` on one line: control characters (C0, DEL, C1: line feeds, `NEL`, escapes) and the
 * Unicode line and paragraph separators become spaces, then runs of whitespace one space.
 */
export function oneLine(text: string): string {
  let line = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    const breaks = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    line += breaks ? ' ' : char;
  }
  return line.replace(/\s+/g, ' ').trim();
}

/** The first `maxChars` characters of `text`, with `…` when it was longer. */
export function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, Math.max(1, maxChars)).trimEnd()}…`;
}

/**
 * Whether two request lines are the same request: equal, or one is a shortened form (at
 * least 60 characters, `…` dropped) of the other.
 */
export function sameRequest(a: string, b: string): boolean {
  const first = a.replace(/…$/, '');
  const second = b.replace(/…$/, '');
  if (first === second) return true;
  const [short, long] = first.length <= second.length ? [first, second] : [second, first];
  return short.length >= 60 && long.startsWith(short);
}

/** Adds `request` to `requests` unless it is already there; the longer form is kept. */
export function addRequest(requests: string[], request: string): void {
  const line = oneLine(request);
  if (!line) return;
  const at = requests.findIndex((existing) => sameRequest(existing, line));
  if (at < 0) requests.push(line);
  else if (line.replace(/…$/, '').length > (requests[at] ?? '').replace(/…$/, '').length) requests[at] = line;
}

/** Replaces a shortened form of `request` in `requests` by its longer form; never adds one. */
export function upgradeRequest(requests: string[], request: string): void {
  const line = oneLine(request);
  const at = requests.findIndex((existing) => sameRequest(existing, line));
  if (at >= 0 && line.replace(/…$/, '').length > (requests[at] ?? '').replace(/…$/, '').length) requests[at] = line;
}

/**
 * Errors without repeats: the same tool failing on the same subject with the same text (its
 * first 60 characters, the least any rendering keeps) is listed once, at its latest
 * occurrence and with that occurrence's outcome.
 */
export function dedupeErrors(errors: readonly ToolErrorFact[]): ToolErrorFact[] {
  const latest = new Map<string, ToolErrorFact>();
  for (const error of errors) {
    const key = `${error.tool}\u0000${error.subject ?? ''}\u0000${error.text.replace(/…$/, '').slice(0, 60)}`;
    latest.delete(key);
    latest.set(key, error);
  }
  return [...latest.values()];
}
