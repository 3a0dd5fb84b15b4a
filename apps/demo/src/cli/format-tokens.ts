/** A token count with thousands separators: `15121271` → `15,121,271`. */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}

/**
 * `text` with every standalone number of four digits or more given thousands separators, as every
 * figure the CLI prints: `(54797 → 54887 tokens)` → `(54,797 → 54,887 tokens)`. For the
 * engine's messages, which carry raw numbers.
 */
export function withThousands(text: string): string {
  // A figure stands alone: not part of a port, a path, a version or an identifier.
  return text.replace(/(?<![\w.:/#-])\d{4,}(?![\w.:/-])/g, (digits) => formatTokens(Number(digits)));
}

/** The change from `before` to `after` as a signed percentage: `−42.1%`. */
export function formatChange(before: number, after: number): string {
  if (before === 0) return 'n/a';
  const change = ((after - before) / before) * 100;
  return `${change < 0 ? '−' : '+'}${Math.abs(change).toFixed(1)}%`;
}
