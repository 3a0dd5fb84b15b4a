/** Tokens for a label: `950`, `31K`, `1.2M`. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  const thousands = Math.round(tokens / 1000);
  if (thousands < 1000) return `${thousands}K`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}
