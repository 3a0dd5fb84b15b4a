import { InvalidSettingsError } from '../errors/invalid-settings-error.js';

/**
 * Where an unknown key most likely belongs (shown in the error): what a peer
 * library calls it (`from`), or, without `from`, a key of ours given at the wrong level.
 */
export type PeerOptionHint = { from?: string; use: string };

/**
 * Throws {@link InvalidSettingsError} naming the first key of `value` that is not
 * in `known`: with our equivalent when a peer library (LangChain's
 * `summarizationMiddleware`, Mastra's `TokenLimiter`, …) uses that name, else the
 * closest known key, else the list of known keys.
 *
 * @param where - what the keys belong to, for the message (`settings`, `compactionMiddleware options`).
 * @param prefix - prepended to the key in `setting` (`settings.` for nested settings).
 * @default hints {}
 * @default prefix ''
 */
export function checkOptionKeys(
  value: object,
  known: readonly string[],
  where: string,
  hints: Readonly<Record<string, PeerOptionHint>> = {},
  prefix = '',
): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    if ((value as Record<string, unknown>)[key] === undefined) continue; // `{ ...options }` spreads may carry unset keys
    const hint = hints[key];
    const closest = hint ? undefined : closestKey(key, known);
    const advice = hint
      ? hint.from
        ? `${hint.from} calls it "${key}"; here use ${hint.use}`
        : `use ${hint.use}`
      : closest
        ? `did you mean "${closest}"?`
        : `known: ${known.join(', ')}`;
    throw new InvalidSettingsError({ setting: `${prefix}${key}`, problem: `unknown ${where} key; ${advice}` });
  }
}

/** The known key within edit distance 2 of `key` (case-insensitive), or one that contains it. */
function closestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  if (best) return best.key;
  return lower.length >= 4 ? known.find((candidate) => candidate.toLowerCase().startsWith(lower)) : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * A short description of a value's type for messages: `the string "lots"`, `NaN`,
 * `a Buffer of 12 bytes`, `an object with keys a, b` (the first 8 keys of a larger one).
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of ${value.byteLength} bytes`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    const shown = keys.length > 8 ? `${keys.slice(0, 8).join(', ')}, … (${keys.length} keys)` : keys.join(', ');
    return `an object with keys ${shown || '(none)'}`;
  }
  return typeof value;
}
