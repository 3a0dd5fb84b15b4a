/** Counts the tokens of a piece of text. Implementations must be pure. */
export type TokenCounter = {
  /** A stable name; per-message caches are keyed by it. */
  readonly name: string;
  /** Tokens in `text`. */
  countText(text: string): number;
};
