import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { warnGuessedContextWindow } from '../models/warn-guessed-context-window.js';
import type { CompactionSessionOptions } from '../session/types.js';
import { checkOptionKeys, describeValue } from './check-option-keys.js';
import { checkSessionId } from './check-session-id.js';
import { checkSettingsInput, SETTING_KEYS } from './check-settings-input.js';

/**
 * Every option of `createCompactionSession`. Typed against the options type, so a
 * new option that is not listed here fails the typecheck instead of being
 * rejected at run time as unknown.
 */
const SESSION_OPTIONS = {
  store: true,
  sessionId: true,
  summarizer: true,
  settings: true,
  model: true,
  counter: true,
  tokenCache: true,
  persistHistory: true,
  onEvent: true,
} satisfies Record<keyof CompactionSessionOptions, true>;

/** The option names of `createCompactionSession`. */
export const SESSION_OPTION_KEYS = Object.keys(SESSION_OPTIONS) as (keyof CompactionSessionOptions)[];

const STORE_METHODS = ['loadHistory', 'appendHistory', 'loadRecord', 'saveRecord', 'clear'] as const;

/**
 * Checks the options of `createCompactionSession` before anything is made:
 * known keys (a setting given at the top level is told to go under `settings`),
 * a `sessionId` that is not blank ({@link checkSessionId}: every store keys by it), a `store` with the
 * `SessionStore` methods, a `summarizer` with `summarize` (a model object or a
 * name is told what to pass instead), a `counter`, a `tokenCache`, `onEvent`,
 * then the settings ({@link checkSettingsInput}). Throws {@link InvalidSettingsError}
 * naming the option. Reports once per process (a warning) when `model` is an id
 * whose window is not known and no `contextWindow` is set.
 */
export function checkSessionOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `createCompactionSession takes an options object ({ sessionId, store, summarizer, settings, … }), got ${describeValue(options)}`,
    });
  }
  const given = options as Record<string, unknown>;
  const fail = (setting: string, problem: string): never => {
    throw new InvalidSettingsError({ setting, problem });
  };
  for (const key of Object.keys(given)) {
    if ((SETTING_KEYS as readonly string[]).includes(key) && given[key] !== undefined) {
      fail(key, `is a setting: pass it inside settings, e.g. settings: { ${key}: ${describeValue(given[key])} }`);
    }
  }
  checkOptionKeys(given, SESSION_OPTION_KEYS, 'createCompactionSession option');
  const { sessionId, store, summarizer, counter, tokenCache, model, persistHistory, onEvent } = given;
  checkSessionId(sessionId);
  if (store !== undefined) {
    const missing = STORE_METHODS.filter(
      (method) => typeof (store as Record<string, unknown> | null)?.[method] !== 'function',
    );
    if (typeof store !== 'object' || store === null || missing.length > 0) {
      fail(
        'store',
        `must be a SessionStore (memoryStore(), fileStore(dir) or your own); missing ${missing.join(', ')}`,
      );
    }
  }
  if (summarizer !== undefined) checkSummarizer(summarizer);
  if (counter !== undefined && typeof (counter as { countText?: unknown } | null)?.countText !== 'function') {
    fail(
      'counter',
      `must be a TokenCounter ({ name, countText }), e.g. gptTokenizerCounter(); got ${describeValue(counter)}`,
    );
  }
  if (tokenCache !== undefined && typeof (tokenCache as { count?: unknown } | null)?.count !== 'function') {
    fail(
      'tokenCache',
      `must be a TokenCache from createTokenCache() or sharedTokenCache(); got ${describeValue(tokenCache)}`,
    );
  }
  if (model !== undefined && typeof model !== 'string') {
    fail(
      'model',
      `must be the model id string (e.g. 'gpt-5'), got ${describeValue(model)}; the summarizer takes a model object`,
    );
  }
  if (persistHistory !== undefined && typeof persistHistory !== 'boolean') {
    fail('persistHistory', `must be true or false, got ${describeValue(persistHistory)}`);
  }
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    fail('onEvent', `must be a function (event) => void, got ${describeValue(onEvent)}`);
  }
  checkSettingsInput(given.settings);
  const window = (given.settings as { contextWindow?: unknown } | undefined)?.contextWindow;
  if (typeof model === 'string' && window === undefined) warnGuessedContextWindow(model);
}

/**
 * A core `Summarizer` (`{ name, summarize }`). A name (`'llm'`) or a model object
 * is rejected with what to pass instead: core cannot call a model by itself.
 */
function checkSummarizer(summarizer: unknown): void {
  if (typeof (summarizer as { summarize?: unknown } | null)?.summarize === 'function') return;
  const looksLikeModel =
    typeof summarizer === 'object' &&
    summarizer !== null &&
    ['doGenerate', 'invoke', 'generate', 'specificationVersion'].some((key) => key in summarizer);
  const advice =
    summarizer === 'structured'
      ? 'pass structuredSummarizer() (it is the default: leave summarizer out)'
      : looksLikeModel || summarizer === 'llm' || typeof summarizer === 'string'
        ? "core calls no model by itself: pass llmSummarizer({ generate }) or an adapter's summarizer (aiSdkSummarizer(model), langchainSummarizer(model), mastraSummarizer(model))"
        : 'pass a Summarizer ({ name, summarize }), e.g. structuredSummarizer() or llmSummarizer({ generate })';
  throw new InvalidSettingsError({
    setting: 'summarizer',
    problem: `must be a Summarizer, got ${describeValue(summarizer)}; ${advice}`,
  });
}
