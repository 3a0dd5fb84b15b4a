import { genuineRequestText, type Message } from '@compaction/core';

/** The tools whose `file_path` (or `notebook_path`) input is counted, and whether they read or modify. */
export const FILE_TOOLS: Readonly<Record<string, 'read' | 'modified'>> = Object.freeze({
  Read: 'read',
  Edit: 'modified',
  Write: 'modified',
  MultiEdit: 'modified',
  NotebookEdit: 'modified',
});

/** What a summary of a span should keep: its file paths and the user's requests. */
export type SpanFacts = {
  /** Paths a Write/Edit/MultiEdit/NotebookEdit call named, sorted. */
  modified: string[];
  /** Paths only a Read call named (a path also modified is under `modified` only), sorted. */
  read: string[];
  /**
   * The text of every genuine user request, in order: core's `genuineRequestText` (a user turn
   * that is not `synthetic`, with harness-injected text — `<task-notification>`, `<system-reminder>`,
   * "[Request interrupted by user…]" — removed; a message that is all harness text is no request).
   */
  requests: string[];
};

function inputPath(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  const path = record.file_path ?? record.notebook_path;
  return typeof path === 'string' && path.trim() ? path.trim() : undefined;
}

/** The file paths and genuine user requests of `messages`, read from the tool-call inputs and the user's messages. */
export function spanFacts(messages: readonly Message[]): SpanFacts {
  const modified = new Set<string>();
  const read = new Set<string>();
  const requests: string[] = [];
  for (const message of messages) {
    const request = genuineRequestText(message)?.trim();
    if (request) requests.push(request);
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      const kind = FILE_TOOLS[part.toolName];
      const path = inputPath(part.input);
      if (!kind || !path) continue;
      (kind === 'read' ? read : modified).add(path);
    }
  }
  return {
    modified: [...modified].sort(),
    read: [...read].filter((path) => !modified.has(path)).sort(),
    requests,
  };
}
