/** A session file format this package can read. */
export type SessionFormat = 'claude-code' | 'compaction-json';

/** Record `type`s of Claude Code transcripts. */
const CLAUDE_CODE_TYPES: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'system',
  'progress',
  'summary',
  'file-history-snapshot',
  'queue-operation',
]);

/** How many non-blank lines to look at before giving up on a JSONL transcript. */
const LINES_TO_CHECK = 10;

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tells a session file's format from its text: `compaction-json` for the project's own
 * `{ "format": "compaction-session", … }` file, `claude-code` for a Claude Code JSONL
 * transcript (judged by the first line of its first ten non-blank lines that is a JSON
 * object), `undefined` otherwise.
 *
 * @example
 * detectSessionFormat('{"format":"compaction-session","version":1,"messages":[]}'); // 'compaction-json'
 */
export function detectSessionFormat(text: string): SessionFormat | undefined {
  const whole = text.trimStart().startsWith('{') ? parseObject(text) : undefined;
  if (whole?.format === 'compaction-session') return 'compaction-json';
  let checked = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const record = parseObject(line);
    if (record) {
      return typeof record.type === 'string' && CLAUDE_CODE_TYPES.has(record.type) ? 'claude-code' : undefined;
    }
    checked += 1;
    if (checked >= LINES_TO_CHECK) return undefined;
  }
  return undefined;
}
