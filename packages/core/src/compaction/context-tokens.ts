import type { Message } from '../messages/types.js';
import { countMessageTokens } from '../tokens/index.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { type BuildContextOptions, buildContext } from './build-context.js';
import type { CompactionState } from './compaction-state.js';

/**
 * Tokens of the context built from `history` and `state`. Messages taken from
 * the history as they are use `countTokens` (usually an id cache); messages the
 * context builder made or changed (summary, pruned outputs, repairs) are
 * counted afresh with `counter`.
 *
 * @default buildOptions {}
 */
export function contextTokens(
  history: readonly Message[],
  state: CompactionState | undefined,
  countTokens: (message: Message) => number,
  counter: TokenCounter,
  buildOptions: BuildContextOptions = {},
): number {
  const originals = new Set(history);
  let total = 0;
  for (const message of buildContext(history, state, buildOptions)) {
    total += originals.has(message) ? countTokens(message) : countMessageTokens(message, counter);
  }
  return total;
}
