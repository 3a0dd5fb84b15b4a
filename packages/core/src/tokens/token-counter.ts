/**
 * Counts the tokens of a piece of text. Implementations must be pure, and
 * `countText` synchronous: it is called from the engine's pure functions (cut
 * points, budgets, estimates). A counter with large tables loads them on its
 * first count, not when it is made (see `gptTokenizerCounter`, `tiktokenCounter`).
 */
export type TokenCounter = {
  /** A stable name; per-message caches are keyed by it. */
  readonly name: string;
  /** Tokens in `text`. */
  countText(text: string): number;
};
