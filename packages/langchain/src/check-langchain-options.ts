import {
  checkSessionId,
  describeValue,
  getContextWindow,
  InvalidSettingsError,
  type PeerOptionHint,
} from '@compaction/core';
import { type AdapterOptionsTable, checkAdapterOptions } from '@compaction/core/internal';
import type { CompactingChatMessageHistoryOptions } from './compacting-chat-message-history.js';
import type { CompactionMiddlewareOptions } from './compaction-middleware.js';
import type { CompactionContextToolsOptions } from './context-tools.js';
import { langchainSummarizerResolver } from './resolve-summarizer.js';

/** Every option of `compactionMiddleware`; typed, so a new option must be listed (or the typecheck fails). */
const MIDDLEWARE_OPTIONS = {
  settings: true,
  model: true,
  summarizer: true,
  counter: true,
  mode: true,
  name: true,
  onEvent: true,
} satisfies Record<keyof CompactionMiddlewareOptions, true>;

/** Every option of `CompactingChatMessageHistory`. */
const HISTORY_OPTIONS = {
  history: true,
  sessionId: true,
  store: true,
  summarizer: true,
  settings: true,
  model: true,
  counter: true,
  onEvent: true,
} satisfies Record<keyof CompactingChatMessageHistoryOptions, true>;

const PEER = "LangChain's summarizationMiddleware";

/** `summarizationMiddleware` options that are not settings here (its `trigger`, `keep`, … are core's `ADAPTER_OPTION_HINTS`). */
const HINTS: Readonly<Record<string, PeerOptionHint>> = {
  summaryPrompt: { from: PEER, use: 'summarizer: langchainSummarizer(model, { prompts })' },
  summaryPrefix: { from: PEER, use: 'summarizer: langchainSummarizer(model, { prompts })' },
  trimTokensToSummarize: { from: PEER, use: 'nothing: the summary request is bounded by the summary model itself' },
};

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}

/** What both take alike: the hints, the summarizer, `model` an id, `onEvent`. */
const SHARED = {
  hints: HINTS,
  summarizer: langchainSummarizerResolver,
  modelId: 'a chat model goes in summarizer',
} satisfies Partial<AdapterOptionsTable>;

/**
 * Checks `compactionMiddleware` options when the middleware is made (not at the
 * first model call): known keys — `summarizationMiddleware`'s `trigger`, `keep`,
 * `maxTokensBeforeSummary`, … are told ours —, the settings (fully against the
 * window when `settings.contextWindow` is set; otherwise against it once the model's
 * profile gives it), the summarizer, `mode`, `name`, `model`, `counter`, `onEvent`.
 * Throws `InvalidSettingsError` naming the option.
 */
export function checkCompactionMiddlewareOptions(options: unknown): void {
  const given = checkAdapterOptions(options, {
    ...SHARED,
    where: 'compactionMiddleware',
    known: Object.keys(MIDDLEWARE_OPTIONS),
    strings: { name: 'unique within an agent' },
  });
  if (given) checkMode(given.mode);
}

/** `mode`, when given, is `'context'` or `'replace'`. */
function checkMode(mode: unknown): void {
  if (mode !== undefined && mode !== 'context' && mode !== 'replace') {
    fail('mode', `must be 'context' or 'replace', got ${describeValue(mode)}`);
  }
}

/**
 * Checks `CompactingChatMessageHistory` options in its constructor: known keys,
 * a `history` with `getMessages`/`addMessages`/`clear`, a `sessionId` (core's
 * `checkSessionId`: not empty, not only whitespace),
 * a store, and the shared options (settings against the model's window).
 * Throws `InvalidSettingsError` naming the option.
 */
export function checkChatHistoryOptions(options: unknown): void {
  const given = checkAdapterOptions(options, {
    ...SHARED,
    where: 'CompactingChatMessageHistory',
    required: true,
    known: Object.keys(HISTORY_OPTIONS),
    window: (values) => getContextWindow(typeof values.model === 'string' ? values.model : undefined),
  });
  const history = given?.history as Record<string, unknown> | undefined;
  if (!history || ['getMessages', 'addMessages', 'clear'].some((method) => typeof history[method] !== 'function')) {
    fail(
      'history',
      `must be a LangChain chat history (getMessages, addMessages, clear), got ${describeValue(history)}`,
    );
  }
  checkSessionId(given?.sessionId, { what: 'your chat id' }); // core's rule: '' and '   ' are refused alike
}

/**
 * Every option of `compactionContextTools`: the middleware's (the README gives both one
 * options object; `summarizer`, `mode`, `name` and `onEvent` are checked, then unused) and the tool budgets.
 */
const CONTEXT_TOOLS_OPTIONS = {
  ...MIDDLEWARE_OPTIONS,
  maxToolOutputChars: true,
  snippetChars: true,
} satisfies Record<keyof CompactionContextToolsOptions, true>;

/**
 * Checks `compactionContextTools` options when the tools are made: an options object
 * (or nothing) with known keys — the middleware's keys are known, so one options object
 * serves both —, and every middleware option as the middleware checks it — the settings
 * fully, against `settings.contextWindow` or `model`'s window (the tools' sessions know
 * no other) — and the tool budgets (core's `createContextTools`).
 * Throws `InvalidSettingsError` naming the option.
 */
export function checkContextToolsOptions(options: unknown): void {
  const given = checkAdapterOptions(options, {
    ...SHARED,
    where: 'compactionContextTools',
    known: Object.keys(CONTEXT_TOOLS_OPTIONS),
    shape: 'the options you give compactionMiddleware, e.g. { settings: { contextWindow: 200_000 } }',
    modelId: "a chat model goes in the middleware's summarizer",
    strings: { name: 'unique within an agent' },
    // The tools' sessions know no agent model: their window is `model`'s (or 128K), known now.
    window: (values) => getContextWindow(typeof values.model === 'string' ? values.model : undefined),
  });
  if (given) checkMode(given.mode);
}
