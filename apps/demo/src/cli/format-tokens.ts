/** A token count with thousands separators: `15121271` → `15,121,271`. */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}

/** The change from `before` to `after` as a signed percentage: `−42.1%`. */
export function formatChange(before: number, after: number): string {
  if (before === 0) return 'n/a';
  const change = ((after - before) / before) * 100;
  return `${change < 0 ? '−' : '+'}${Math.abs(change).toFixed(1)}%`;
}
