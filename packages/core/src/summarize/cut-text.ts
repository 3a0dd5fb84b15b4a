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
