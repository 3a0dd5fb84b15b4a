import type { FileOperations } from './types.js';

/** A failed tool call, and whether a later call of the same tool succeeded. */
export type ToolErrorFact = { tool: string; text: string; resolved: boolean };

/**
 * What the deterministic summaries hold, gathered from messages ({@link collectSummaryFacts})
 * or read back from an earlier summary ({@link parseSummaryFacts}).
 */
export type SummaryFacts = {
  /** What the user is trying to do: the earliest request known. */
  goal?: string;
  /** Every user request, one line each, oldest first, without repeats. */
  requests: string[];
  /** The most recent user request, verbatim. */
  lastRequest?: string;
  /** Tool name → number of calls. */
  toolCounts: Map<string, number>;
  /** Failed tool calls, oldest first. */
  errors: ToolErrorFact[];
  /** Tools with at least one successful result (resolves earlier errors of the same tool). */
  succeededTools: Set<string>;
  /** What the assistant said, one line each, oldest first. */
  statements: string[];
  /** Lines of an earlier summary that have no place of their own, kept as they were. */
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
    statements: [],
    carried: [],
    fileOps: { read: [], modified: [] },
  };
}

/** `text` on one line: runs of whitespace become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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

/**
 * Errors without repeats: the same tool failing with the same text (its first 60
 * characters, the least any rendering keeps) is listed once, at its latest occurrence
 * and with that occurrence's outcome.
 */
export function dedupeErrors(errors: readonly ToolErrorFact[]): ToolErrorFact[] {
  const latest = new Map<string, ToolErrorFact>();
  for (const error of errors) {
    const key = `${error.tool}\u0000${error.text.replace(/…$/, '').slice(0, 60)}`;
    latest.delete(key);
    latest.set(key, error);
  }
  return [...latest.values()];
}
