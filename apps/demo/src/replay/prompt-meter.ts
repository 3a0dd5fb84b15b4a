import type { Message, TokenCounter } from '@compaction/core';
import { countMessageTokens } from '@compaction/core';

/** What {@link PromptMeter.measure} says about one prompt. */
export type PromptMeasure = {
  /** Tokens of every message together (without any fixed overhead). */
  tokens: number;
  /** Per message, in order: a content key (role and parts; ids and metadata left out) and its tokens. */
  messages: { key: string; tokens: number }[];
};

/** Counts prompts, remembering each message's count by its content. See {@link createPromptMeter}. */
export type PromptMeter = {
  readonly counter: TokenCounter;
  measure(prompt: readonly Message[]): PromptMeasure;
};

/**
 * A token meter for the prompts a model receives. Counts with core's
 * `countMessageTokens` and remembers each message by its content (role and parts),
 * not its id: a framework converts the same message to a new object, with a new id,
 * on every call, and a pruned tool result keeps its id but not its content.
 *
 * @example
 * ```ts
 * const meter = createPromptMeter(tiktokenCounter());
 * meter.measure(prompt).tokens;
 * ```
 */
export function createPromptMeter(counter: TokenCounter): PromptMeter {
  const counts = new Map<string, number>();
  const keys = new WeakMap<Message, string>();
  function keyOf(message: Message): string {
    let key = keys.get(message);
    if (key === undefined) {
      key = `${message.role}\u0000${JSON.stringify(message.parts)}`;
      keys.set(message, key);
    }
    return key;
  }
  return {
    counter,
    measure(prompt) {
      let tokens = 0;
      const messages = prompt.map((message) => {
        const key = keyOf(message);
        let count = counts.get(key);
        if (count === undefined) {
          count = countMessageTokens(message, counter);
          counts.set(key, count);
        }
        tokens += count;
        return { key, tokens: count };
      });
      return { tokens, messages };
    },
  };
}
