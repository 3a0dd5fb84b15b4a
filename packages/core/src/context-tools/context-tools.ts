import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import type { CompactionSession } from '../session/types.js';
import { describeValue } from '../settings/check-option-keys.js';
import { InvalidToolInputError } from './invalid-tool-input-error.js';
import { messageSearchText } from './message-search-text.js';
import { type HistorySearchHit, MAX_SEARCH_HITS, searchHistory } from './search-history.js';

/** A JSON Schema (draft 7 subset) describing a tool's input. */
export type ToolInputSchema = {
  type: 'object';
  properties: Record<
    string,
    { type: 'string' | 'integer' | 'number' | 'boolean'; description: string; minimum?: number; maximum?: number }
  >;
  required: string[];
  additionalProperties: false;
};

/**
 * One context tool in a framework-neutral shape: each adapter wraps it in its
 * framework's tool format (AI SDK `tool()`, LangChain `tool()`, Mastra `createTool()`).
 */
export type ContextTool<Input, Output> = {
  name: string;
  /** Tells the model when to use the tool. */
  description: string;
  inputSchema: ToolInputSchema;
  /** Validates `input` (a model's arguments are untrusted) and runs the tool. */
  execute(input: unknown): Promise<Output>;
  /** The type of `Input`, for adapters (never set at run time). */
  readonly inputType?: Input;
};

/** What `context_stats` returns. */
export type ContextStatsOutput = {
  contextTokens: number;
  contextWindow: number;
  triggerTokens: number;
  percentUsed: number;
  compactions: number;
  contextMessages: number;
  historyMessages: number;
};

/** What `search_history` returns. */
export type SearchHistoryOutput = {
  /** How many messages the model no longer sees in full (summarized, or with their tool output cleared): what was searched. */
  searchedMessages: number;
  hits: HistorySearchHit[];
};

/** What `read_message` returns. */
export type ReadMessageOutput =
  | {
      found: true;
      id: string;
      role: Message['role'];
      /** Position in the display history. */
      index: number;
      /** Whether the message is before the cut (the summary stands for it). */
      summarized: boolean;
      /** Whether its tool output was cleared from the context (pruned). */
      outputCleared: boolean;
      text: string;
    }
  | { found: false; id: string; error: string };

/** The four context tools, by name. */
export type ContextTools = {
  context_stats: ContextTool<Record<string, never>, ContextStatsOutput>;
  compact_context: ContextTool<{ focus?: string }, { requested: true; focus: string | null; note: string }>;
  search_history: ContextTool<{ query: string; limit?: number }, SearchHistoryOutput>;
  read_message: ContextTool<{ id: string }, ReadMessageOutput>;
};

/** Options of {@link createContextTools}. */
export type ContextToolsOptions = {
  /** Characters of tool output `read_message` returns; longer output keeps its head and tail. @default 8000 */
  maxToolOutputChars?: number;
  /** Characters of each `search_history` snippet. @default 300 */
  snippetChars?: number;
};

/** Names of the context tools, in the order adapters list them. */
export const CONTEXT_TOOL_NAMES = ['context_stats', 'compact_context', 'search_history', 'read_message'] as const;

/**
 * The context tools for one conversation, over its session: `context_stats`,
 * `compact_context({ focus? })` (takes effect before the model's next step),
 * `search_history({ query, limit? })` (BM25 over the summarized messages only)
 * and `read_message({ id })`. Nothing outside this conversation is reachable.
 * `session` may be a function, for adapters that resolve the conversation's
 * session at call time. Anything else (`undefined`, a chat id) throws
 * `InvalidSettingsError` naming `session` when the tools are made.
 */
export function createContextTools(
  session: CompactionSession | (() => CompactionSession | Promise<CompactionSession>),
  options: ContextToolsOptions = {},
): ContextTools {
  checkSessionArgument(session);
  const maxToolOutputChars = positiveInteger(options.maxToolOutputChars ?? 8000, 'maxToolOutputChars');
  const snippetChars = positiveInteger(options.snippetChars ?? 300, 'snippetChars');
  const resolve = async () => (typeof session === 'function' ? await session() : session);

  /** What the model no longer sees: the messages before the first kept one, and tool messages whose output was cleared. */
  const hiddenPart = async (current: CompactionSession) => {
    const [history, state] = await Promise.all([current.history(), current.state()]);
    const firstKept = state ? history.findIndex((message) => message.id === state.firstKeptMessageId) : 0;
    const summarizedCount = firstKept === -1 ? 0 : firstKept;
    const pruned = new Set(state?.prunedToolCallIds ?? []);
    const isCleared = (message: Message) =>
      pruned.size > 0 && message.parts.some((part) => part.type === 'tool-result' && pruned.has(part.toolCallId));
    const hidden = history.filter((message, index) => index < summarizedCount || isCleared(message));
    return { history, summarizedCount, hidden, isCleared };
  };

  return {
    context_stats: {
      name: 'context_stats',
      description:
        'Shows how full your context window is: tokens used, the window, the compaction trigger, percent used, compactions so far, and messages in context vs in the full history. Use it before a long task to decide whether to compact first.',
      inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
      async execute(input) {
        objectInput(input, 'context_stats', []);
        const current = await resolve();
        const stats = await current.stats();
        return {
          contextTokens: stats.contextTokens,
          contextWindow: stats.contextWindow,
          triggerTokens: stats.triggerTokens,
          percentUsed: stats.percentUsed,
          compactions: stats.compactions,
          contextMessages: stats.contextMessages,
          historyMessages: stats.historyMessages,
        };
      },
    },
    compact_context: {
      name: 'compact_context',
      description:
        'Summarizes the older part of this conversation to free context space. It takes effect before your next step, not during this one. Use it when context_stats shows the context nearly full, or between two tasks. Pass `focus` to say what the summary must keep.',
      inputSchema: {
        type: 'object',
        properties: { focus: { type: 'string', description: 'What the summary must keep in detail.' } },
        required: [],
        additionalProperties: false,
      },
      async execute(input) {
        const { focus } = objectInput(input, 'compact_context', ['focus']);
        if (focus !== undefined && typeof focus !== 'string')
          throw toolInputError('compact_context', 'focus', 'a string');
        const current = await resolve();
        current.requestCompaction(focus ? { instructions: focus } : {});
        return {
          requested: true,
          focus: focus ? focus : null,
          note: 'The conversation will be compacted before your next step.',
        };
      },
    },
    search_history: {
      name: 'search_history',
      description:
        'Searches the earlier part of this conversation that you no longer see in full (messages summarized away, tool outputs cleared) and returns the best-matching snippets with their message ids. Use it when the summary mentions something whose exact detail you need (a value, an error text, a file content), then read_message for the whole message.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words or identifiers to look for.' },
          limit: { type: 'integer', description: 'How many hits at most.', minimum: 1, maximum: MAX_SEARCH_HITS },
        },
        required: ['query'],
        additionalProperties: false,
      },
      async execute(input) {
        const { query, limit } = objectInput(input, 'search_history', ['query', 'limit']);
        if (typeof query !== 'string' || query.trim().length === 0) {
          throw toolInputError('search_history', 'query', 'a non-empty string');
        }
        if (limit !== undefined && (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 1)) {
          throw toolInputError('search_history', 'limit', 'a number from 1');
        }
        const { history, hidden } = await hiddenPart(await resolve());
        const hits = searchHistory(hidden, query, { limit: limit ?? 5, snippetChars });
        return {
          searchedMessages: hidden.length,
          hits: hits.map((hit) => ({ ...hit, index: history.indexOf(hidden[hit.index]!) })),
        };
      },
    },
    read_message: {
      name: 'read_message',
      description:
        'Returns one message of this conversation in full, by the id search_history gave you (tool output is cut to a budget).',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: 'The message id from search_history.' } },
        required: ['id'],
        additionalProperties: false,
      },
      async execute(input) {
        const { id } = objectInput(input, 'read_message', ['id']);
        if (typeof id !== 'string' || id.length === 0) throw toolInputError('read_message', 'id', 'a message id');
        const { history, summarizedCount, isCleared } = await hiddenPart(await resolve());
        const index = history.findIndex((message) => message.id === id);
        if (index === -1) return { found: false, id, error: `no message with id "${id}" in this conversation` };
        const message = history[index]!;
        return {
          found: true,
          id,
          role: message.role,
          index,
          summarized: index < summarizedCount,
          outputCleared: isCleared(message),
          text: messageSearchText(message, maxToolOutputChars),
        };
      },
    },
  };
}

function objectInput(input: unknown, tool: string, keys: readonly string[]): Record<string, unknown> {
  const value = input ?? {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new InvalidToolInputError(tool, 'its input must be an object');
  const taken: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(value)) {
    if (!keys.includes(key)) {
      throw new InvalidToolInputError(
        tool,
        `unknown argument "${key}"${keys.length ? `; it takes ${keys.join(', ')}` : '; it takes no arguments'}`,
      );
    }
    // A strict tool schema (OpenAI's strict mode) makes optional arguments nullable: null is "not given".
    if (given !== null) taken[key] = given;
  }
  return taken;
}

function toolInputError(tool: string, key: string, expected: string): InvalidToolInputError {
  return new InvalidToolInputError(tool, `"${key}" must be ${expected}`);
}

/** The conversation's session, or a function giving it: anything else would fail only when the model calls a tool. */
function checkSessionArgument(session: unknown): void {
  if (typeof session === 'function') return;
  const given = session as Partial<Record<keyof CompactionSession, unknown>> | null | undefined;
  if (
    typeof given === 'object' &&
    given !== null &&
    typeof given.history === 'function' &&
    typeof given.stats === 'function'
  ) {
    return;
  }
  throw new InvalidSettingsError({
    setting: 'session',
    problem: `the context tools take the conversation's CompactionSession (e.g. middleware.session(chatId, model)) or a function that returns it, got ${describeValue(session)}`,
  });
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidSettingsError({ setting: name, problem: `must be a positive integer, got ${String(value)}` });
  }
  return value;
}
