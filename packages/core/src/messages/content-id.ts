/**
 * Stable ids for frameworks whose messages carry none (the AI SDK prompt):
 * each id hashes the message's content together with the id before it, so an
 * id names the whole conversation up to and including that message. The same
 * history re-sent on the next request gets the same ids; an edited message
 * changes its id and every id after it.
 *
 * Adapters compute these ids for the whole history on every model call, so the
 * hash reads the content's *structure* rather than serializing it: every key,
 * number and boolean, and of every string its length plus up to
 * {@link STRING_SAMPLE_CHARS} characters spread over it (all of a short
 * string). An edit that keeps a long string's length and touches none of its
 * sampled characters is therefore not seen — the price of an id that costs
 * microseconds instead of a full pass over megabytes of text per call.
 */

import { addChars, addCode, digest, type HashLanes, startLanes } from './hash-lanes.js';

export { hashString } from './hash-lanes.js';

/** How many characters of a string the fingerprint reads (every character of a shorter string). */
export const STRING_SAMPLE_CHARS = 96;

/** Feeds a string's length and a sample of its characters (all of them when short). */
function addSampledString(lanes: HashLanes, text: string): void {
  const length = text.length;
  let h1 = Math.imul(lanes.h1 ^ 0x22, 2654435761);
  let h2 = Math.imul(lanes.h2 ^ 0x22, 1597334677);
  h1 = Math.imul(h1 ^ (length & 0xffff), 2654435761);
  h2 = Math.imul(h2 ^ (length & 0xffff), 1597334677);
  h1 = Math.imul(h1 ^ (length >>> 16), 2654435761);
  h2 = Math.imul(h2 ^ (length >>> 16), 1597334677);
  if (length <= STRING_SAMPLE_CHARS) {
    for (let index = 0; index < length; index += 1) {
      const code = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
  } else {
    const step = length / STRING_SAMPLE_CHARS;
    for (let sample = 0; sample < STRING_SAMPLE_CHARS; sample += 1) {
      const code = text.charCodeAt(Math.floor(sample * step));
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
    const last = text.charCodeAt(length - 1);
    h1 = Math.imul(h1 ^ last, 2654435761);
    h2 = Math.imul(h2 ^ last, 1597334677);
  }
  lanes.h1 = h1;
  lanes.h2 = h2;
}

/**
 * Feeds a number as `#` and `String(value)`: an int32 digit by digit with no
 * string made (`String(-0)` is `0`, as here), anything else through `String`.
 */
function addNumber(lanes: HashLanes, value: number): void {
  if ((value | 0) !== value) {
    addChars(lanes, `#${String(value)}`, 0, -1);
    return;
  }
  let h1 = Math.imul(lanes.h1 ^ 0x23, 2654435761);
  let h2 = Math.imul(lanes.h2 ^ 0x23, 1597334677);
  let rest = value;
  if (value < 0) {
    h1 = Math.imul(h1 ^ 0x2d, 2654435761);
    h2 = Math.imul(h2 ^ 0x2d, 1597334677);
    rest = -value;
  }
  let unit = 1;
  while (unit * 10 <= rest) unit *= 10;
  for (; unit >= 1; unit /= 10) {
    const digit = Math.floor(rest / unit);
    rest -= digit * unit;
    const code = 0x30 + digit;
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  lanes.h1 = h1;
  lanes.h2 = h2;
}

/** Feeds a value's structure: keys in sorted order, numbers, booleans, sampled strings, byte arrays. */
function addValue(lanes: HashLanes, value: unknown, depth: number): void {
  if (depth > 64) return;
  // `typeof x === '…'` tests compile to a type check each; a `switch` on `typeof` compares strings.
  if (typeof value === 'string') addSampledString(lanes, value);
  else if (typeof value === 'object') addObject(lanes, value, depth);
  else if (typeof value === 'number') addNumber(lanes, value);
  else if (typeof value === 'boolean') addCode(lanes, value ? 0x74 : 0x66);
  else if (typeof value === 'undefined') addCode(lanes, 0x75);
  else if (typeof value === 'bigint') addChars(lanes, `#${String(value)}`, 0, -1);
}

/** Feeds `null`, an array, bytes, a URL or an object's entries. */
function addObject(lanes: HashLanes, value: object | null, depth: number): void {
  if (value === null) {
    addCode(lanes, 0x6e);
  } else if (Array.isArray(value)) {
    addCode(lanes, 0x5b);
    for (let index = 0; index < value.length; index += 1) addValue(lanes, value[index], depth + 1);
    addCode(lanes, 0x5d);
  } else if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : value;
    addCode(lanes, 0x62);
    addCode(lanes, bytes.length & 0xffff);
    addCode(lanes, bytes.length >>> 16);
    const step = Math.max(1, bytes.length / STRING_SAMPLE_CHARS);
    for (let index = 0; index < bytes.length; index += step) addCode(lanes, bytes[Math.floor(index)]!);
  } else if (value instanceof URL) {
    addSampledString(lanes, value.href);
  } else {
    addCode(lanes, 0x7b);
    addRecord(lanes, value as Record<string, unknown>, depth);
    addCode(lanes, 0x7d);
  }
}

/** Up to this many keys sort by insertion (no call into `Array#sort`); more by `Array#sort`. */
const SMALL_SORT = 16;

/**
 * Sorts a few distinct strings in place, in `Array#sort`'s default order
 * (UTF-16 code units, which is what `<` on strings compares).
 */
function sortSmall(keys: string[]): void {
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index]!;
    let at = index - 1;
    while (at >= 0 && keys[at]! > key) {
      keys[at + 1] = keys[at]!;
      at -= 1;
    }
    keys[at + 1] = key;
  }
}

/**
 * Feeds an object's defined entries in sorted key order (`Object.keys(…).sort()`
 * order): a message part's few keys are insertion-sorted in place, more through
 * `Array#sort`.
 */
function addRecord(lanes: HashLanes, record: Record<string, unknown>, depth: number): void {
  const keys = Object.keys(record);
  if (keys.length > SMALL_SORT) keys.sort();
  else sortSmall(keys);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const entry = record[key];
    if (entry === undefined) continue;
    addChars(lanes, key, 0, 0x3a);
    addValue(lanes, entry, depth + 1);
  }
}

/**
 * The content fingerprint of a value (see the module note: keys, numbers,
 * booleans, and sampled strings), chained to `seed` when given. Equal content
 * always gives the same fingerprint, whatever the key order.
 */
export function contentFingerprint(value: unknown, seed = ''): string {
  return chainedFingerprint(value, seed, 0);
}

/** `contentFingerprint(value, seed.slice(seedFrom))`, without slicing the seed. */
function chainedFingerprint(value: unknown, seed: string, seedFrom: number): string {
  const lanes = startLanes();
  if (seed.length > seedFrom) addChars(lanes, seed, seedFrom, 0x0a);
  addValue(lanes, value, 0);
  return digest(lanes);
}

/** The prefix of content ids unless an adapter namespaces its own (`chainedContentIds`' default). */
export const CONTENT_ID_PREFIX = 'm_';

/**
 * Content-derived ids for a list of message contents: `ids[i]` depends on
 * `contents[0..i]`. `prefix` namespaces them.
 *
 * @default prefix CONTENT_ID_PREFIX (`m_`)
 */
export function chainedContentIds(contents: readonly unknown[], prefix = CONTENT_ID_PREFIX): string[] {
  const ids: string[] = [];
  let previous = '';
  for (let index = 0; index < contents.length; index += 1) {
    previous = chainedFingerprint(contents[index], previous, 0);
    ids.push(`${prefix}${previous}`);
  }
  return ids;
}

/**
 * The content id that follows `previousId` in a chain of `chainedContentIds`
 * (`undefined` for the first message): what an adapter converting a history
 * incrementally uses to extend the ids it made before, exactly as
 * `chainedContentIds` over the whole history would.
 *
 * @default prefix CONTENT_ID_PREFIX (`m_`)
 */
export function nextContentId(content: unknown, previousId: string | undefined, prefix = CONTENT_ID_PREFIX): string {
  if (previousId === undefined) return `${prefix}${chainedFingerprint(content, '', 0)}`;
  return `${prefix}${chainedFingerprint(content, previousId, prefix.length)}`;
}
