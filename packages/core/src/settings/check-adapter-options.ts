import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { ADAPTER_OPTION_HINTS } from './adapter-option-hints.js';
import { checkOptionKeys, describeValue, type PeerOptionHint } from './check-option-keys.js';
import { isBlankString } from './check-session-id.js';
import { checkSettingsInput } from './check-settings-input.js';
import { resolveSettings } from './compaction-settings.js';
import { resolveSummarizerOption, type SummarizerOptionResolver } from './resolve-summarizer-option.js';

/**
 * One adapter's options, as a table for {@link checkAdapterOptions}: its name, its
 * keys, the peer-library names it answers, and which options are of which kind.
 * The checks are core's; an adapter lists only what it has.
 */
export type AdapterOptionsTable = {
  /** What the options are given to, for messages: `compactionMiddleware`, `CompactionProcessor`. */
  readonly where: string;
  /** Every key the options may have. */
  readonly known: readonly string[];
  /**
   * Whether the options object itself is required (a constructor with required options).
   * @default false
   */
  readonly required?: boolean;
  /**
   * Names users copy from the adapter's framework, with ours; added to (and over)
   * {@link ADAPTER_OPTION_HINTS}, which every adapter gets.
   * @default {}
   */
  readonly hints?: Readonly<Record<string, PeerOptionHint>>;
  /**
   * How the options object reads, for the message when something else is given.
   * @default undefined (no example)
   */
  readonly shape?: string;
  /**
   * How the adapter reads `summarizer`; `'llm'` is left to the call, where the model is known.
   * @default undefined (no `summarizer` option)
   */
  readonly summarizer?: SummarizerOptionResolver<unknown>;
  /**
   * When `model` is a model id string (for the window): what goes elsewhere, for the message
   * (`a chat model goes in summarizer`). Unset when the adapter's `model` is not an id.
   * @default undefined (`model` is not checked here)
   */
  readonly modelId?: string;
  /**
   * The window to check the settings against when `settings.contextWindow` is not
   * set; undefined: only the checks that need no window run until a model is known.
   * @default undefined
   */
  readonly window?: (given: Readonly<Record<string, unknown>>) => number | undefined;
  /**
   * Options that are callbacks `(event) => void`.
   * @default ['onEvent']
   */
  readonly callbacks?: readonly string[];
  /**
   * Options that must be non-empty strings when given (not only whitespace: {@link isBlankString}), with what each is (`your chat id`).
   * @default {}
   */
  readonly strings?: Readonly<Record<string, string>>;
};

/**
 * Checks an adapter's options when the adapter is made, not at the first model
 * call: an options object, known keys (a peer library's name or a setting given at
 * the top level is told ours), `model` an id string when the table says so, the
 * settings (fully against the window when one is known), the summarizer (core's
 * shared resolver), `store` a `SessionStore`, `counter` a `TokenCounter`, the
 * callbacks functions and the named strings non-empty (whitespace-only refused too). Throws
 * {@link InvalidSettingsError} naming the option and what to pass. Returns the
 * options as a record for the adapter's own checks, or undefined when none were
 * given and none are required.
 *
 * @example
 * ```ts
 * const given = checkAdapterOptions(options, { where: 'CompactionProcessor', known: ['settings', 'store'] });
 * ```
 */
export function checkAdapterOptions(
  options: unknown,
  table: AdapterOptionsTable,
): Readonly<Record<string, unknown>> | undefined {
  if (options === undefined && !table.required) return undefined;
  const { where } = table;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail(
      'options',
      `${where} takes an options object${table.shape ? ` (${table.shape})` : ''}, got ${describeValue(options)}`,
    );
  }
  const given = options as Record<string, unknown>;
  checkOptionKeys(given, table.known, `${where} option`, { ...ADAPTER_OPTION_HINTS, ...table.hints });
  if (table.modelId !== undefined && given.model !== undefined && typeof given.model !== 'string') {
    fail('model', `must be the model id string (for the window), got ${describeValue(given.model)}; ${table.modelId}`);
  }
  checkSettingsInput(given.settings);
  const settings = given.settings as { contextWindow?: number } | undefined;
  const window = settings?.contextWindow ?? table.window?.(given);
  if (window !== undefined) resolveSettings(settings, window);
  if (table.summarizer && given.summarizer !== undefined && given.summarizer !== 'llm') {
    resolveSummarizerOption(given.summarizer, table.summarizer);
  }
  const store = given.store as Record<string, unknown> | null | undefined;
  if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.loadRecord !== 'function')) {
    fail('store', `must be a SessionStore (memoryStore(), fileStore(dir) or your own), got ${describeValue(store)}`);
  }
  const counter = given.counter as { countText?: unknown } | null | undefined;
  if (counter !== undefined && typeof counter?.countText !== 'function') {
    fail('counter', `must be a core TokenCounter ({ name, countText }), got ${describeValue(counter)}`);
  }
  for (const [key, what] of Object.entries(table.strings ?? {})) {
    const value = given[key];
    if (value !== undefined && (typeof value !== 'string' || isBlankString(value))) {
      const blank = typeof value === 'string' && value.length > 0 ? ' (only whitespace)' : '';
      fail(key, `must be a non-empty string (${what}), got ${describeValue(value)}${blank}`);
    }
  }
  for (const key of table.callbacks ?? ['onEvent']) {
    if (given[key] !== undefined && typeof given[key] !== 'function') {
      fail(key, `must be a function (event) => void, got ${describeValue(given[key])}`);
    }
  }
  return given;
}

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}
