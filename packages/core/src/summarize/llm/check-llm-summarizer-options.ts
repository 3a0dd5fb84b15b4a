import { InvalidSettingsError } from '../../errors/invalid-settings-error.js';
import { checkOptionKeys, describeValue } from '../../settings/check-option-keys.js';
import { isBlankString } from '../../settings/check-session-id.js';
import type { SerializeConversationOptions } from '../framing/serialize-conversation.js';
import type { LlmSummarizerOptions } from './llm-summarizer.js';
import type { SummaryPrompts } from './summary-prompts.js';

/** Every option of `llmSummarizer`; typed, so a new option must be listed here (or the typecheck fails). */
const OPTIONS = {
  generate: true,
  prompts: true,
  maxOutputTokens: true,
  serialize: true,
  contextWindow: true,
} satisfies Record<keyof LlmSummarizerOptions, true>;

const PROMPTS = { system: true, initial: true, update: true, turnPrefix: true } satisfies Record<
  keyof SummaryPrompts,
  true
>;
const SERIALIZE = { maxToolOutputChars: true, includeReasoning: true } satisfies Record<
  keyof SerializeConversationOptions,
  true
>;
const OUTPUT_LIMITS = ['history', 'turnPrefix'];

/** The option keys of `llmSummarizer`, `generate` included. */
export const LLM_SUMMARIZER_OPTION_KEYS: readonly string[] = Object.keys(OPTIONS);

/**
 * Checks the options an adapter's summarizer (`langchainSummarizer(model, options)`,
 * `mastraSummarizer(model, options)`) passes on to `llmSummarizer`, when it is made:
 * an object (or nothing) with known keys — `maxTokens` is told `maxOutputTokens`, a
 * typo gets the closest key. `generate` is the adapter's, so it is refused here. The
 * nested shapes too: `prompts` of non-empty strings under `system`/`initial`/`update`/
 * `turnPrefix`, `maxOutputTokens` a number or `{ history, turnPrefix }`, `serialize`
 * `{ maxToolOutputChars, includeReasoning }`; the numbers' ranges are `llmSummarizer`'s
 * own checks. Throws `InvalidSettingsError`.
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
  const { prompts, maxOutputTokens, serialize } = options as Record<string, unknown>;
  const prompt = nestedObject(prompts, 'prompts', '{ system?, initial?, update?, turnPrefix? } of strings');
  if (prompt) {
    checkOptionKeys(prompt, Object.keys(PROMPTS), 'prompts', {}, 'prompts.');
    for (const [key, text] of Object.entries(prompt)) {
      if (text !== undefined && (typeof text !== 'string' || isBlankString(text))) {
        fail(`prompts.${key}`, `must be a non-empty string (the prompt), got ${describeValue(text)}`);
      }
    }
  }
  if (typeof maxOutputTokens !== 'number') {
    const limits = nestedObject(maxOutputTokens, 'maxOutputTokens', 'a number of tokens, or { history?, turnPrefix? }');
    if (limits) checkOptionKeys(limits, OUTPUT_LIMITS, 'maxOutputTokens', {}, 'maxOutputTokens.');
  }
  const serializing = nestedObject(serialize, 'serialize', '{ maxToolOutputChars?, includeReasoning? }');
  if (serializing) {
    checkOptionKeys(serializing, Object.keys(SERIALIZE), 'serialize', {}, 'serialize.');
    const { maxToolOutputChars, includeReasoning } = serializing as SerializeConversationOptions;
    if (
      maxToolOutputChars !== undefined &&
      (typeof maxToolOutputChars !== 'number' || !Number.isInteger(maxToolOutputChars) || maxToolOutputChars < 1)
    ) {
      fail(
        'serialize.maxToolOutputChars',
        `must be a positive whole number of characters, got ${describeValue(maxToolOutputChars)}`,
      );
    }
    if (includeReasoning !== undefined && typeof includeReasoning !== 'boolean') {
      fail('serialize.includeReasoning', `must be true or false, got ${describeValue(includeReasoning)}`);
    }
  }
}

/** `value` as an object when it is one, undefined when unset; anything else throws. */
function nestedObject(value: unknown, setting: string, shape: string): object | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  return fail(setting, `must be ${shape}, got ${describeValue(value)}`);
}

function fail(setting: string, problem: string): never {
  throw new InvalidSettingsError({ setting, problem });
}
