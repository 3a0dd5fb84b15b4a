import { get_encoding, type Tiktoken } from 'tiktoken';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { TokenCounter } from './token-counter.js';

/** The tiktoken encodings {@link tiktokenCounter} supports. */
export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

const ENCODINGS: readonly TiktokenEncoding[] = ['o200k_base', 'cl100k_base'];

/**
 * Runs of letters, symbols or whitespace longer than this are counted in slices
 * of this length. tiktoken's BPE is quadratic in the length of one pre-token
 * (100K spaces take ~9 s, 10K CJK characters ~0.7 s); slicing keeps it linear and
 * changes the count by at most a token or two per slice, only for such runs.
 */
export const TIKTOKEN_MAX_RUN = 500;

const LONG_RUN = new RegExp(
  `[\\p{L}\\p{M}]{${TIKTOKEN_MAX_RUN},}|[^\\s\\p{L}\\p{M}\\p{N}]{${TIKTOKEN_MAX_RUN},}|\\s{${TIKTOKEN_MAX_RUN},}`,
  'gu',
);

/** One encoder per encoding per process: creating one costs ~70–170 ms. Never freed. */
const encoders = new Map<TiktokenEncoding, Tiktoken>();

function encoderFor(encoding: TiktokenEncoding): Tiktoken {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = get_encoding(encoding);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

function countRun(encoder: Tiktoken, run: string): number {
  let tokens = 0;
  for (let start = 0; start < run.length; start += TIKTOKEN_MAX_RUN) {
    tokens += encoder.encode_ordinary(run.slice(start, start + TIKTOKEN_MAX_RUN)).length;
  }
  return tokens;
}

function countWithEncoder(encoder: Tiktoken, text: string): number {
  let tokens = 0;
  let position = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > position) tokens += encoder.encode_ordinary(text.slice(position, match.index)).length;
    tokens += countRun(encoder, match[0]);
    position = match.index + match[0].length;
  }
  if (position === 0) return encoder.encode_ordinary(text).length;
  if (position < text.length) tokens += encoder.encode_ordinary(text.slice(position)).length;
  return tokens;
}

/**
 * An exact token counter built on the `tiktoken` WASM tokenizer.
 *
 * - Exact for OpenAI models of that encoding (`o200k_base`: GPT-4o, GPT-4.1, GPT-5,
 *   o-series, gpt-oss; `cl100k_base`: GPT-4, GPT-3.5) and a close estimate for other
 *   providers' tokenizers (calibrate with `updateCalibration`).
 * - Special-token text such as `<|endoftext|>` in user content is counted as
 *   ordinary text (`encode_ordinary`), never rejected.
 * - The encoder is created lazily on the first count and cached for the process,
 *   shared by every counter of the same encoding.
 * - Runs longer than {@link TIKTOKEN_MAX_RUN} characters of one kind are counted in
 *   slices (see there), so pathological tool output cannot stall the process.
 *
 * @param encoding - the tiktoken encoding.
 * @default encoding 'o200k_base'
 * @example
 * ```ts
 * const counter = tiktokenCounter();
 * counter.countText('hello world'); // 2
 * ```
 */
export function tiktokenCounter(encoding: TiktokenEncoding = 'o200k_base'): TokenCounter {
  if (!ENCODINGS.includes(encoding)) {
    throw new InvalidSettingsError({
      setting: 'encoding',
      problem: `unsupported tiktoken encoding ${JSON.stringify(encoding)}; use one of ${ENCODINGS.join(', ')}`,
    });
  }
  return {
    name: `tiktoken-${encoding}`,
    countText: (text) => (text.length === 0 ? 0 : countWithEncoder(encoderFor(encoding), text)),
  };
}
