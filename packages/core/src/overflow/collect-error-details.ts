/** Texts and HTTP statuses found on an error. Internal to `overflow/`. */
export type ErrorDetails = { texts: string[]; statuses: number[] };

/** Keys whose string values are examined, and whose object values are followed. */
const FOLLOWED_KEYS = [
  'message',
  'responseBody',
  'body',
  'error',
  'data',
  'cause',
  'lastError',
  'errors',
  'response',
  'code',
  'type',
  'statusText',
  '$metadata',
] as const;

/** Keys whose numeric values are HTTP statuses (`code` only when it is a number, as in Google's errors). */
const STATUS_KEYS = new Set(['status', 'statusCode', 'httpStatusCode', 'code']);

const MAX_DEPTH = 10;
const MAX_TEXT = 20_000;
const MAX_ARRAY = 10;

function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function visit(value: unknown, depth: number, seen: Set<object>, details: ErrorDetails): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    const text = value.slice(0, MAX_TEXT);
    details.texts.push(text);
    const first = text.trimStart()[0];
    if (first === '{' || first === '[') {
      try {
        visit(JSON.parse(text), depth + 1, seen, details);
      } catch {
        // not JSON: the raw text was collected above
      }
    }
    return;
  }
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_ARRAY)) visit(item, depth + 1, seen, details);
    return;
  }
  for (const key of STATUS_KEYS) {
    const status = read(value, key);
    if (typeof status === 'number' && Number.isInteger(status)) details.statuses.push(status);
  }
  for (const key of FOLLOWED_KEYS) visit(read(value, key), depth + 1, seen, details);
}

/**
 * Gathers the strings (`message`, `responseBody`, `error.message`, `data.error.code`, …,
 * following `cause`, `lastError` and `errors` too) and HTTP statuses of an error of any
 * shape, without throwing: cycles, throwing getters, primitives and deep nesting are
 * handled. Strings that hold JSON are also parsed and searched. Other keys, such as the
 * request body (which holds the user's prompt), are never read.
 */
export function collectErrorDetails(error: unknown): ErrorDetails {
  const details: ErrorDetails = { texts: [], statuses: [] };
  visit(error, 0, new Set(), details);
  return details;
}
