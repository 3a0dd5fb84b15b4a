import {
  checkOptionKeys,
  checkSettingsInput,
  describeValue,
  getContextWindow,
  InvalidSettingsError,
  type PeerOptionHint,
  resolveSettings,
  resolveSummarizerOption,
  SETTINGS_AT_TOP_LEVEL,
} from '@compaction/core';
import type { CompactingChatMessageHistoryOptions } from './compacting-chat-message-history.js';
import type { CompactionMiddlewareOptions } from './compaction-middleware.js';
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

/** `summarizationMiddleware` options that users copy, and ours. */
const HINTS: Readonly<Record<string, PeerOptionHint>> = {
  ...SETTINGS_AT_TOP_LEVEL,
  trigger: {
    from: PEER,
    use: 'settings: { trigger: N } (tokens) or settings: { trigger: 0.8 } (a fraction of the window)',
  },
  keep: { from: PEER, use: 'settings: { keepRecentMessages: N } or settings: { keepRecentTokens: N }' },
  maxTokensBeforeSummary: { from: PEER, use: 'settings: { trigger: N }' },
  messagesToKeep: { from: PEER, use: 'settings: { keepRecentMessages: N }' },
  summaryPrompt: { from: PEER, use: 'summarizer: langchainSummarizer(model, { prompts })' },
  summaryPrefix: { from: PEER, use: 'summarizer: langchainSummarizer(model, { prompts })' },
  tokenCounter: { from: PEER, use: 'counter (a core TokenCounter, e.g. gptTokenizerCounter())' },
  trimTokensToSummarize: { from: PEER, use: 'nothing: the summary request is bounded by the summary model itself' },
};

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}

function checkObject(options: unknown, where: string): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('options', `${where} takes an options object, got ${describeValue(options)}`);
  }
  return options as Record<string, unknown>;
}

/** The options both share: settings, summarizer, model, counter, onEvent. */
function checkShared(given: Record<string, unknown>, window: number | undefined): void {
  checkSettingsInput(given.settings);
  const settings = given.settings as { contextWindow?: number } | undefined;
  if (window !== undefined) resolveSettings(settings, settings?.contextWindow ?? window);
  // 'llm' writes with the agent's model, known only at the call.
  if (given.summarizer !== undefined && given.summarizer !== 'llm') {
    resolveSummarizerOption(given.summarizer, langchainSummarizerResolver);
  }
  if (given.model !== undefined && typeof given.model !== 'string') {
    fail(
      'model',
      `must be the model id string (for the window), got ${describeValue(given.model)}; a chat model goes in summarizer`,
    );
  }
  if (given.counter !== undefined && typeof (given.counter as { countText?: unknown }).countText !== 'function') {
    fail('counter', `must be a core TokenCounter ({ name, countText }), got ${describeValue(given.counter)}`);
  }
  if (given.onEvent !== undefined && typeof given.onEvent !== 'function') {
    fail('onEvent', `must be a function (event) => void, got ${describeValue(given.onEvent)}`);
  }
}

/**
 * Checks `compactionMiddleware` options when the middleware is made (not at the
 * first model call): known keys — `summarizationMiddleware`'s `trigger`, `keep`,
 * `maxTokensBeforeSummary`, … are told ours —, the settings (fully against the
 * window when `settings.contextWindow` is set; otherwise against it once the model's
 * profile gives it), the summarizer, `mode`, `name`, `model`, `counter`, `onEvent`.
 * Throws `InvalidSettingsError` naming the option.
 */
export function checkCompactionMiddlewareOptions(options: unknown): void {
  if (options === undefined) return;
  const given = checkObject(options, 'compactionMiddleware');
  checkOptionKeys(given, Object.keys(MIDDLEWARE_OPTIONS), 'compactionMiddleware option', HINTS);
  const window = (given.settings as { contextWindow?: number } | undefined)?.contextWindow;
  checkShared(given, window);
  if (given.mode !== undefined && given.mode !== 'context' && given.mode !== 'replace') {
    fail('mode', `must be 'context' or 'replace', got ${describeValue(given.mode)}`);
  }
  if (given.name !== undefined && (typeof given.name !== 'string' || given.name.length === 0)) {
    fail('name', `must be a non-empty string, got ${describeValue(given.name)}`);
  }
}

/**
 * Checks `CompactingChatMessageHistory` options in its constructor: known keys,
 * a `history` with `getMessages`/`addMessages`/`clear`, a non-empty `sessionId`,
 * a store, and the shared options (settings against the model's window).
 * Throws `InvalidSettingsError` naming the option.
 */
export function checkChatHistoryOptions(options: unknown): void {
  const given = checkObject(options, 'CompactingChatMessageHistory');
  checkOptionKeys(given, Object.keys(HISTORY_OPTIONS), 'CompactingChatMessageHistory option', HINTS);
  const history = given.history as Record<string, unknown> | undefined;
  if (!history || ['getMessages', 'addMessages', 'clear'].some((method) => typeof history[method] !== 'function')) {
    fail(
      'history',
      `must be a LangChain chat history (getMessages, addMessages, clear), got ${describeValue(history)}`,
    );
  }
  if (typeof given.sessionId !== 'string' || given.sessionId.length === 0) {
    fail(
      'sessionId',
      `is required: a non-empty string that keys the conversation in the store, got ${describeValue(given.sessionId)}`,
    );
  }
  const store = given.store as Record<string, unknown> | undefined;
  if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.loadRecord !== 'function')) {
    fail('store', `must be a SessionStore (memoryStore(), fileStore(dir) or your own), got ${describeValue(store)}`);
  }
  const model = typeof given.model === 'string' ? given.model : undefined;
  checkShared(given, getContextWindow(model));
}
