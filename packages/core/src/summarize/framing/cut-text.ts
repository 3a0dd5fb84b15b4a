/**
 * `text` cut to `maxChars` characters, with `… [N more characters cut]` when it was longer.
 *
 * @example
 * ```ts
 * cutText('abcdef', 2); // 'ab… [4 more characters cut]'
 * ```
 */
export function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let kept = Math.max(0, Math.floor(maxChars));
  // Never split a surrogate pair.
  if (kept > 0 && /[\uD800-\uDBFF]/.test(text.charAt(kept - 1))) kept -= 1;
  return `${text.slice(0, kept)}… [${(text.length - kept).toLocaleString('en-US')} more characters cut]`;
}

/**
 * `text` cut so that it counts at most `maxTokens` tokens with `counter`, marked with
 * `… [N more characters cut]` (see {@link cutText}). Returns `text` itself when it fits.
 * The cut is measured, not guessed: it shrinks until the counter agrees.
 *
 * @example
 * ```ts
 * cutToTokens(hugePaste, 2_000, counter); // the first ~2,000 tokens, then the marker
 * ```
 */
export function cutToTokens(text: string, maxTokens: number, counter: { countText(text: string): number }): string {
  const budget = Math.max(0, Math.floor(maxTokens));
  let tokens = counter.countText(text);
  if (tokens <= budget) return text;
  let chars = Math.floor((text.length * budget) / Math.max(1, tokens));
  for (;;) {
    const cut = cutText(text, chars);
    tokens = counter.countText(cut);
    if (tokens <= budget || chars === 0) return cut;
    chars = Math.floor(chars * Math.min(0.9, budget / tokens));
  }
}
