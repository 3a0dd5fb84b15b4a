import {
  checkOptionKeys,
  checkSettingsInput,
  describeValue,
  InvalidSettingsError,
  type PeerOptionHint,
  resolveSettings,
  resolveSummarizerOption,
  SETTINGS_AT_TOP_LEVEL,
} from '@compaction/core';
import type { CompactionOptions, CompactionPrepareStepOptions } from './compaction-options.js';
import { aiSdkSummarizerResolver, isAiSdkModel } from './resolve-summarizer.js';

/** Every option. Typed against the options type: a new option must be listed here, or the typecheck fails. */
const OPTIONS = {
  store: true,
  summarizer: true,
  summaryModel: true,
  settings: true,
  counter: true,
  onEvent: true,
  onCompaction: true,
  sessionId: true,
} satisfies Record<keyof CompactionPrepareStepOptions, true>;

const SETTINGS_AT_TOP = 'is a setting: pass it inside settings';

/** Options users copy from elsewhere, and ours. */
const HINTS: Readonly<Record<string, PeerOptionHint>> = {
  ...SETTINGS_AT_TOP_LEVEL,
  trigger: { from: "LangChain's summarizationMiddleware", use: `settings: { trigger } (it ${SETTINGS_AT_TOP})` },
  keep: {
    from: "LangChain's summarizationMiddleware",
    use: 'settings: { keepRecentMessages } or settings: { keepRecentTokens }',
  },
  maxTokens: { from: 'a token limiter', use: 'settings: { contextWindow, trigger }' },
  onFinish: { from: 'streamText', use: 'onEvent (compaction events)' },
};

/**
 * Checks `compactionMiddleware` / `compactionPrepareStep` options when they are
 * made, so a mistake fails at construction, not at the first model call:
 * known keys (LangChain's `trigger`/`keep` and the settings given at the top
 * level are told where they go), the settings (fully against the window when
 * `settings.contextWindow` is set; the rest needs the model's window and is
 * checked when a conversation starts), the summarizer (core's shared resolver:
 * an AI SDK model is accepted and wrapped), `summaryModel` a model object, the
 * store, counter and callbacks. Throws `InvalidSettingsError` naming the option.
 *
 * @param where - the function the options were given to, for messages.
 */
export function checkCompactionOptions(options: unknown, where: string): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `${where} takes an options object ({ store, summarizer, settings, … }), got ${describeValue(options)}`,
    });
  }
  const given = options as Record<string, unknown> & CompactionOptions;
  const fail = (setting: string, problem: string): never => {
    throw new InvalidSettingsError({ setting, problem });
  };
  // `compactionChat` hands its own options (with the chat `model`) to the middleware.
  if ('model' in given && given.model !== undefined && !isAiSdkModel(given.model)) {
    fail('model', `${where} wraps the model it is given to; set the summary model with summaryModel`);
  }
  const known =
    where === 'compactionPrepareStep'
      ? Object.keys(OPTIONS)
      : [...Object.keys(OPTIONS).filter((key) => key !== 'sessionId'), 'model'];
  checkOptionKeys(given, known, `${where} option`, HINTS);
  checkSettingsInput(given.settings);
  if (given.settings?.contextWindow !== undefined) resolveSettings(given.settings, given.settings.contextWindow);
  // 'llm' writes with `summaryModel` or the wrapped model, known only at the call.
  if (given.summarizer !== undefined && given.summarizer !== 'llm') {
    resolveSummarizerOption(given.summarizer, aiSdkSummarizerResolver);
  }
  if (given.summaryModel !== undefined && !isAiSdkModel(given.summaryModel)) {
    fail(
      'summaryModel',
      `must be an AI SDK model object (e.g. openai('gpt-5-mini')); a string id cannot be called directly; got ${describeValue(given.summaryModel)}`,
    );
  }
  const store = given.store as Record<string, unknown> | undefined;
  if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.loadRecord !== 'function')) {
    fail('store', `must be a SessionStore (memoryStore(), fileStore(dir) or your own), got ${describeValue(store)}`);
  }
  if (given.counter !== undefined && typeof (given.counter as { countText?: unknown }).countText !== 'function') {
    fail('counter', `must be a TokenCounter ({ name, countText }), got ${describeValue(given.counter)}`);
  }
  for (const callback of ['onEvent', 'onCompaction'] as const) {
    if (given[callback] !== undefined && typeof given[callback] !== 'function') {
      fail(callback, `must be a function (event) => void, got ${describeValue(given[callback])}`);
    }
  }
  if (given.onEvent !== undefined && given.onCompaction !== undefined) {
    fail('onCompaction', 'is the deprecated name of onEvent; give only onEvent');
  }
  const sessionId = (given as CompactionPrepareStepOptions).sessionId;
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId.length === 0)) {
    fail('sessionId', `must be a non-empty string (your chat id), got ${describeValue(sessionId)}`);
  }
}
