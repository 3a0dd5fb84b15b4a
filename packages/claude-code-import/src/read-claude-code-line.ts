/**
 * Reads one line of a Claude Code session transcript (JSONL) into the few shapes the
 * importer needs, or says what is wrong with it. Records that carry no conversation
 * (`progress`, `file-history-snapshot`, other `system` records, …) come back as `other`;
 * a `queue-operation` (a prompt typed while the agent was busy) comes back as `queue`.
 */

/** Token usage exactly as the Anthropic API reports it. */
export type ClaudeUsage = {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
};

type RecordBase = { uuid?: string; timestamp?: string; sessionId?: string; isSidechain: boolean };

/** A record of a Claude Code transcript, reduced to what the importer reads. */
export type ClaudeCodeRecord =
  | (RecordBase & {
      kind: 'user';
      uuid: string;
      content: string | Record<string, unknown>[];
      isMeta: boolean;
      isCompactSummary: boolean;
    })
  | (RecordBase & {
      kind: 'assistant';
      uuid: string;
      messageId: string;
      model?: string;
      content: Record<string, unknown>[];
      usage?: ClaudeUsage;
    })
  | (RecordBase & { kind: 'compact-boundary'; preTokens?: number; trigger?: string })
  | (RecordBase & { kind: 'queue'; operation: string; content?: string })
  | (RecordBase & { kind: 'other' });

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function readUsage(value: unknown): ClaudeUsage | undefined {
  if (!isObject(value)) return undefined;
  const figure = (key: string) => (typeof value[key] === 'number' ? (value[key] as number) : 0);
  return {
    input_tokens: figure('input_tokens'),
    cache_creation_input_tokens: figure('cache_creation_input_tokens'),
    cache_read_input_tokens: figure('cache_read_input_tokens'),
    output_tokens: figure('output_tokens'),
  };
}

function readBlocks(value: unknown[]): Json[] | string {
  const index = value.findIndex((block) => !isObject(block) || typeof block.type !== 'string');
  return index === -1 ? (value as Json[]) : `content block ${index} has no "type"`;
}

/** Parses one non-blank line. Returns `{ problem }` when the line cannot be imported. */
export function readClaudeCodeLine(line: string): ClaudeCodeRecord | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { problem: `invalid JSON (${(error as Error).message})` };
  }
  if (!isObject(value)) return { problem: 'not a JSON object' };
  if (typeof value.type !== 'string') return { problem: 'record has no "type"' };
  const base: RecordBase = {
    uuid: optionalString(value.uuid),
    timestamp: optionalString(value.timestamp),
    sessionId: optionalString(value.sessionId),
    isSidechain: value.isSidechain === true,
  };
  if (value.type === 'system' && value.subtype === 'compact_boundary') {
    const meta = isObject(value.compactMetadata) ? value.compactMetadata : {};
    const preTokens = typeof meta.preTokens === 'number' ? meta.preTokens : undefined;
    return { ...base, kind: 'compact-boundary', preTokens, trigger: optionalString(meta.trigger) };
  }
  if (value.type === 'queue-operation' && typeof value.operation === 'string') {
    const content = optionalString(value.content);
    return { ...base, kind: 'queue', operation: value.operation, ...(content === undefined ? {} : { content }) };
  }
  if (value.type !== 'user' && value.type !== 'assistant') return { ...base, kind: 'other' };

  const message = value.message;
  if (!isObject(message)) return { problem: `${value.type} record has no "message" object` };
  if (base.uuid === undefined) return { problem: `${value.type} record has no "uuid"` };
  const content = message.content;
  if (value.type === 'user') {
    let userContent: string | Json[];
    if (typeof content === 'string') userContent = content;
    else if (Array.isArray(content)) {
      const blocks = readBlocks(content);
      if (typeof blocks === 'string') return { problem: `user record: ${blocks}` };
      userContent = blocks;
    } else return { problem: 'user record: "message.content" is neither a string nor an array' };
    return {
      ...base,
      kind: 'user',
      uuid: base.uuid,
      content: userContent,
      isMeta: value.isMeta === true,
      isCompactSummary: value.isCompactSummary === true,
    };
  }
  if (typeof message.id !== 'string') return { problem: 'assistant record has no "message.id"' };
  if (!Array.isArray(content)) return { problem: 'assistant record: "message.content" is not an array' };
  const blocks = readBlocks(content);
  if (typeof blocks === 'string') return { problem: `assistant record: ${blocks}` };
  return {
    ...base,
    kind: 'assistant',
    uuid: base.uuid,
    messageId: message.id,
    model: optionalString(message.model),
    content: blocks,
    usage: readUsage(message.usage),
  };
}
