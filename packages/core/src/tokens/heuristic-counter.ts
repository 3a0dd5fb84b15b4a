import type { TokenCounter } from './token-counter.js';

/**
 * A tokenizer-free counter: `ceil(characters / charsPerToken)`.
 *
 * Use it where exact counts are not worth a tokenizer (tests, very hot paths);
 * {@link tiktokenCounter} is exact for OpenAI encodings and close for others.
 *
 * @param charsPerToken - characters that make one token.
 * @default charsPerToken 4
 * @example
 * ```ts
 * const counter = heuristicCounter();
 * counter.countText('hello world'); // 3
 * ```
 */
export function heuristicCounter(charsPerToken = 4): TokenCounter {
  if (!(charsPerToken > 0) || !Number.isFinite(charsPerToken)) {
    throw new RangeError(`heuristicCounter: charsPerToken must be a positive number, got ${charsPerToken}`);
  }
  return {
    name: `heuristic-${charsPerToken}`,
    countText: (text) => Math.ceil(text.length / charsPerToken),
  };
}
