import { InvalidSettingsError } from '../../errors/invalid-settings-error.js';
import { checkOptionKeys, describeValue } from '../../settings/check-option-keys.js';
import type { LlmSummarizerOptions } from './llm-summarizer.js';

/** Every option of `llmSummarizer`; typed, so a new option must be listed here (or the typecheck fails). */
const OPTIONS = {
  generate: true,
  prompts: true,
  maxOutputTokens: true,
  serialize: true,
  contextWindow: true,
} satisfies Record<keyof LlmSummarizerOptions, true>;

/** The option keys of `llmSummarizer`, `generate` included. */
export const LLM_SUMMARIZER_OPTION_KEYS: readonly string[] = Object.keys(OPTIONS);

/**
 * Checks the options an adapter's summarizer (`langchainSummarizer(model, options)`,
 * `mastraSummarizer(model, options)`) passes on to `llmSummarizer`, when it is made:
 * an object (or nothing) with known keys — `maxTokens` is told `maxOutputTokens`, a
 * typo gets the closest key. `generate` is the adapter's, so it is refused here. The
 * values are checked by `llmSummarizer` itself. Throws `InvalidSettingsError`.
 *
 * @param where - the function the options were given to, for the message (`langchainSummarizer`).
 * @example
 * ```ts
 * checkSummarizerOptions(options, 'mastraSummarizer');
 * ```
 */
export function checkSummarizerOptions(options: unknown, where: string): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidSettingsError({
      setting: 'options',
      problem: `${where} takes an options object ({ prompts, maxOutputTokens, serialize, contextWindow }), got ${describeValue(options)}`,
    });
  }
  const known = LLM_SUMMARIZER_OPTION_KEYS.filter((key) => key !== 'generate');
  checkOptionKeys(options, known, `${where} option`, {
    maxTokens: { use: 'maxOutputTokens (a number, or { history, turnPrefix })' },
    maxOutputTokensHistory: { use: 'maxOutputTokens: { history }' },
    generate: { use: `nothing: ${where} makes the model call from the model it is given` },
    model: { use: `the first argument of ${where}(model, options)` },
  });
}
