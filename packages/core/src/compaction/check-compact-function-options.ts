import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkFocusAndSignal } from '../settings/check-compact-options.js';
import { checkOptionKeys, describeValue, type PeerOptionHint } from '../settings/check-option-keys.js';

/** The keys of `CompactOptions`. */
export const COMPACT_FUNCTION_OPTION_KEYS = [
  'previous',
  'summarizer',
  'settings',
  'model',
  'counter',
  'instructions',
  'signal',
  'fileToolMap',
] as const;

const SESSION_ONLY = 'a session (createCompactionSession) or compactWith from @compaction/core/internal';

/** Where the knobs `compact()` no longer takes went. */
const MOVED: Readonly<Record<string, PeerOptionHint>> = {
  keepRecentTokens: { use: 'settings.keepRecentTokens' },
  countTokens: { use: 'counter (a TokenCounter); per-message caches belong to a session' },
  toContextTokens: { use: `${SESSION_ONLY}: calibration is a session's` },
  force: { use: `session.compact(), which always cuts, or ${SESSION_ONLY}` },
  trigger: { use: `${SESSION_ONLY}: a compact() result's trigger is 'manual'` },
  tokensBefore: { use: `${SESSION_ONLY}: compact() measures it` },
  plan: { use: SESSION_ONLY },
  now: { use: SESSION_ONLY },
};

/**
 * Checks the options of the pure `compact(messages, options)`: an object with
 * known keys (the session's internal knobs are told where they went), a
 * `summarizer` with `summarize`, a `counter` with `countText`, `model` and
 * `instructions` strings, `signal` an `AbortSignal`. Settings are checked when
 * they are resolved. Throws {@link InvalidSettingsError} naming the option.
 */
export function checkCompactFunctionOptions(options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `compact(messages, options) takes { ${COMPACT_FUNCTION_OPTION_KEYS.join(', ')} } (all optional), got ${describeValue(options)}`,
    });
  }
  const given = options as Record<string, unknown>;
  checkOptionKeys(given, COMPACT_FUNCTION_OPTION_KEYS, 'compact() option', MOVED);
  const { summarizer, counter, model, instructions, signal } = given;
  if (summarizer !== undefined && typeof (summarizer as { summarize?: unknown } | null)?.summarize !== 'function') {
    throw new InvalidSettingsError({
      setting: 'summarizer',
      problem: `must be a Summarizer ({ name, summarize }), e.g. structuredSummarizer() or an adapter's; got ${describeValue(summarizer)}`,
    });
  }
  if (counter !== undefined && typeof (counter as { countText?: unknown } | null)?.countText !== 'function') {
    throw new InvalidSettingsError({
      setting: 'counter',
      problem: `must be a TokenCounter ({ name, countText }), e.g. gptTokenizerCounter(); got ${describeValue(counter)}`,
    });
  }
  if (model !== undefined && typeof model !== 'string') {
    throw new InvalidSettingsError({
      setting: 'model',
      problem: `must be the model id string (e.g. 'gpt-5'), for its context window; got ${describeValue(model)}`,
    });
  }
  checkFocusAndSignal(instructions, signal);
}
