import type { Message } from '@compaction/core';
import { InvalidStateError, parseMessages } from '@compaction/core';

/** The `format` tag of the project's own session file. */
export const SESSION_JSON_FORMAT = 'compaction-session';

/** The version of the session file this build reads and writes. */
export const SESSION_JSON_VERSION = 1;

/** The project's own session file: a list of core messages with a format tag. */
export type SessionJson = {
  format: typeof SESSION_JSON_FORMAT;
  version: typeof SESSION_JSON_VERSION;
  messages: Message[];
};

const source = 'session JSON';

/**
 * Reads the project's own session file, `{ "format": "compaction-session", "version": 1,
 * "messages": [...] }`, validating every message with `parseMessages`.
 *
 * @throws InvalidStateError when the text is not JSON or not this format or version.
 * @throws InvalidMessageError naming the first invalid message.
 */
export function parseSessionJson(text: string): SessionJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidStateError({ source, problem: `not valid JSON (${(cause as Error).message})`, cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidStateError({ source, problem: 'expected a JSON object with "format", "version" and "messages"' });
  }
  const { format, version, messages } = value as Record<string, unknown>;
  if (format !== SESSION_JSON_FORMAT) {
    throw new InvalidStateError({
      source,
      problem: `"format" is ${JSON.stringify(format)}, expected "${SESSION_JSON_FORMAT}"; for a Claude Code transcript use parseClaudeCodeSession`,
    });
  }
  if (version !== SESSION_JSON_VERSION) {
    throw new InvalidStateError({
      source,
      problem: `unsupported "version" ${JSON.stringify(version)}; this build reads version ${SESSION_JSON_VERSION}`,
    });
  }
  return { format: SESSION_JSON_FORMAT, version: SESSION_JSON_VERSION, messages: parseMessages(messages) };
}

/**
 * Writes messages as the project's own session file (pretty-printed JSON), the format
 * `parseSessionJson` reads.
 */
export function stringifySessionJson(messages: readonly Message[]): string {
  const file = { format: SESSION_JSON_FORMAT, version: SESSION_JSON_VERSION, messages };
  return `${JSON.stringify(file, null, 2)}\n`;
}
