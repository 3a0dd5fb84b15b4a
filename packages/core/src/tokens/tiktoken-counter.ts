import type { Tiktoken } from 'tiktoken';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { countInRuns } from './count-in-runs.js';
import { loadModule } from './load-module.js';
import type { TokenCounter } from './token-counter.js';

/** The tiktoken encodings {@link tiktokenCounter} supports. */
export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

const ENCODINGS: readonly TiktokenEncoding[] = ['o200k_base', 'cl100k_base'];

/** One encoder per encoding per process: creating one costs ~70–170 ms. Never freed. */
const encoders = new Map<TiktokenEncoding, Tiktoken>();

function encoderFor(encoding: TiktokenEncoding): Tiktoken {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    // tiktoken (its WASM module) is loaded on the first count, never at import.
    encoder = loadModule<typeof import('tiktoken')>('tiktoken').get_encoding(encoding);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

function countWithEncoder(encoder: Tiktoken, text: string): number {
  return countInRuns(text, (piece) => encoder.encode_ordinary(piece).length);
}

/**
 * An exact token counter built on the `tiktoken` WASM tokenizer.
 *
 * - Exact for OpenAI models of that encoding (`o200k_base`: GPT-4o, GPT-4.1, GPT-5,
 *   o-series, gpt-oss; `cl100k_base`: GPT-4, GPT-3.5) and a close estimate for other
 *   providers' tokenizers (calibrate with `updateCalibration`).
 * - Special-token text such as `<|endoftext|>` in user content is counted as
 *   ordinary text (`encode_ordinary`), never rejected.
 * - `tiktoken` is loaded and the encoder created on the first count (not at
 *   import), then cached for the process, shared by every counter of the same encoding.
 * - Runs longer than `MAX_RUN_CHARS` characters of one kind are counted in
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
