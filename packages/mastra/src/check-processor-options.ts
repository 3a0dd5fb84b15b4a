import {
  checkOptionKeys,
  checkSettingsInput,
  describeValue,
  getContextWindow,
  InvalidSettingsError,
  type PeerOptionHint,
  resolveSettings,
  SETTINGS_AT_TOP_LEVEL,
} from '@compaction/core';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';
import { resolveProcessorSummarizer } from './resolve-summarizer.js';

/** Every option; typed, so a new option must be listed here (or the typecheck fails). */
const OPTIONS = {
  store: true,
  summarizer: true,
  settings: true,
  model: true,
  counter: true,
  sessionId: true,
  onEvent: true,
  id: true,
} satisfies Record<keyof CompactionProcessorOptions, true>;

const TOKEN_LIMITER = "Mastra's TokenLimiter";

/** Options of the processors users replace with this one, and ours. */
const HINTS: Readonly<Record<string, PeerOptionHint>> = {
  ...SETTINGS_AT_TOP_LEVEL,
  limit: {
    from: TOKEN_LIMITER,
    use: 'settings: { contextWindow } (the window) and settings: { trigger } (when to compact)',
  },
  encoding: { from: TOKEN_LIMITER, use: "counter: gptTokenizerCounter('o200k_base' | 'cl100k_base')" },
  strategy: { from: TOKEN_LIMITER, use: 'nothing: old messages are summarized, never dropped' },
  countMode: { from: TOKEN_LIMITER, use: 'nothing: the whole history is counted, with the usage the provider reports' },
  trimMode: { from: TOKEN_LIMITER, use: 'nothing: old messages are summarized, never dropped' },
  trigger: { from: "LangChain's summarizationMiddleware", use: 'settings: { trigger }' },
  keep: {
    from: "LangChain's summarizationMiddleware",
    use: 'settings: { keepRecentMessages } or settings: { keepRecentTokens }',
  },
  onCompaction: { from: 'an older @compaction/ai-sdk', use: 'onEvent' },
  name: { from: 'Mastra processors', use: 'id' },
};

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}

/**
 * Checks the options of `CompactionProcessor` in its constructor: known keys
 * (`TokenLimiter`'s `limit`, `encoding`, … are told ours), the settings against
 * the model's window, the summarizer (core's shared resolver: a Mastra model or
 * a model-router id is accepted and wrapped), store, counter, ids and `onEvent`.
 * Throws `InvalidSettingsError` naming the option.
 */
export function checkProcessorOptions(options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('options', `CompactionProcessor takes an options object, got ${describeValue(options)}`);
  }
  const given = options as Record<string, unknown>;
  checkOptionKeys(given, Object.keys(OPTIONS), 'CompactionProcessor option', HINTS);
  if (given.model !== undefined && typeof given.model !== 'string') {
    fail(
      'model',
      `must be the model id string (for the window), got ${describeValue(given.model)}; a model to summarize with goes in summarizer`,
    );
  }
  checkSettingsInput(given.settings);
  resolveSettings(
    given.settings as CompactionProcessorOptions['settings'],
    getContextWindow(given.model as string | undefined),
  );
  resolveProcessorSummarizer(given.summarizer);
  const store = given.store as Record<string, unknown> | undefined;
  if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.loadRecord !== 'function')) {
    fail('store', `must be a SessionStore (memoryStore(), fileStore(dir) or your own), got ${describeValue(store)}`);
  }
  if (given.counter !== undefined && typeof (given.counter as { countText?: unknown }).countText !== 'function') {
    fail('counter', `must be a core TokenCounter ({ name, countText }), got ${describeValue(given.counter)}`);
  }
  for (const key of ['sessionId', 'id'] as const) {
    const value = given[key];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0)) {
      fail(key, `must be a non-empty string, got ${describeValue(value)}`);
    }
  }
  if (given.onEvent !== undefined && typeof given.onEvent !== 'function') {
    fail('onEvent', `must be a function (event) => void, got ${describeValue(given.onEvent)}`);
  }
}
