import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { countInRuns } from './count-in-runs.js';
import type { TiktokenEncoding } from './tiktoken-counter.js';
import type { TokenCounter } from './token-counter.js';

/** Special-token text in content (`<|endoftext|>`) is ordinary text, never rejected. */
const AS_ORDINARY_TEXT = { disallowedSpecial: new Set<string>() };

const COUNTERS: Record<TiktokenEncoding, (text: string) => number> = {
  o200k_base: (text) => countO200k(text, AS_ORDINARY_TEXT),
  cl100k_base: (text) => countCl100k(text, AS_ORDINARY_TEXT),
};

/**
 * An exact token counter on `gpt-tokenizer` (pure JavaScript, the encodings
 * ship in the package: nothing is downloaded). Same counts as
 * {@link tiktokenCounter} — the benchmarks check they agree on every text —
 * but about 2× faster on a typical message and up to 8× on repeated content,
 * which is what decides the per-call cost. The session's default counter.
 *
 * Runs of more than `MAX_RUN_CHARS` characters of one kind are counted in slices,
 * so pathological tool output cannot stall the process.
 *
 * @param encoding - the OpenAI encoding.
 * @default encoding 'o200k_base'
 * @example
 * ```ts
 * createCompactionSession({ sessionId, counter: gptTokenizerCounter('cl100k_base') });
 * ```
 */
export function gptTokenizerCounter(encoding: TiktokenEncoding = 'o200k_base'): TokenCounter {
  const count = COUNTERS[encoding];
  if (!count) {
    throw new InvalidSettingsError({
      setting: 'encoding',
      problem: `unsupported encoding ${JSON.stringify(encoding)}; use one of ${Object.keys(COUNTERS).join(', ')}`,
    });
  }
  return {
    name: `gpt-tokenizer-${encoding}`,
    countText: (text) => (text.length === 0 ? 0 : countInRuns(text, count)),
  };
}
