import { collectErrorDetails } from './collect-error-details.js';
import { CONTEXT_OVERFLOW_PATTERNS, type ContextOverflowPattern } from './context-overflow-patterns.js';

/** Signs of a rate limit or quota, which must never count as an overflow (compacting would not help). */
const RATE_LIMIT =
  /rate[ _-]?limit|too many requests|tokens per (?:min|minute|hour|day)|requests per (?:min|minute|day)|\b[TR]P[MD]\b|throttl|quota|resource[ _]exhausted|please wait before|\bper (?:second|sec|min|minute|hour|day)\b|\/(?:min|minute|day)\b/i;

/**
 * The {@link CONTEXT_OVERFLOW_PATTERNS} entry an error matches, or `undefined` when it
 * is not a context-overflow error. Useful to log which provider rule fired;
 * `isContextOverflowError` is the boolean form.
 *
 * An HTTP status of 413 reports the `http-413` entry. A 429 status or any rate-limit
 * or quota wording rules the error out, whatever else it says.
 */
export function matchContextOverflowError(error: unknown): ContextOverflowPattern | undefined {
  const { texts, statuses } = collectErrorDetails(error);
  if (statuses.includes(429) || texts.some((text) => RATE_LIMIT.test(text))) return undefined;
  for (const entry of CONTEXT_OVERFLOW_PATTERNS) {
    if (texts.some((text) => entry.pattern.test(text))) return entry;
  }
  if (statuses.includes(413)) return CONTEXT_OVERFLOW_PATTERNS.find((entry) => entry.provider === 'http-413');
  return undefined;
}
