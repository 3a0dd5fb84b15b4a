/** How counted tokens map to a recording's reported ones: `recorded ≈ overheadTokens + tokenRatio × counted`. */
export type TokenScale = {
  /** Tokens every call carries besides the messages (system prompt, tool definitions). */
  overheadTokens: number;
  /** The recorded model's tokens per counted (o200k) token. */
  tokenRatio: number;
};

/** The scale that changes nothing. */
export const IDENTITY_SCALE: TokenScale = Object.freeze({ overheadTokens: 0, tokenRatio: 1 });

const MIN_RATIO = 0.5;
const MAX_RATIO = 2.5;

/**
 * Fits `recorded = overhead + ratio × counted` by least squares over calls whose recorded
 * context was the whole history (before the harness's first compaction). With fewer than
 * two distinct points the ratio is 1 and the overhead is the first call's difference.
 * The ratio is kept within [0.5, 2.5] and the overhead at or above 0.
 */
export function fitTokenScale(points: readonly { counted: number; recorded: number }[]): TokenScale {
  const first = points[0];
  if (!first) return IDENTITY_SCALE;
  const n = points.length;
  const meanX = points.reduce((sum, point) => sum + point.counted, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.recorded, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.counted - meanX) * (point.recorded - meanY);
    variance += (point.counted - meanX) ** 2;
  }
  if (n < 2 || variance < 1) {
    return { overheadTokens: Math.max(0, Math.round(first.recorded - first.counted)), tokenRatio: 1 };
  }
  const tokenRatio = Math.min(MAX_RATIO, Math.max(MIN_RATIO, covariance / variance));
  return { overheadTokens: Math.max(0, Math.round(meanY - tokenRatio * meanX)), tokenRatio };
}
