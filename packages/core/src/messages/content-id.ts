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

/** How many characters of a string the fingerprint reads (every character of a shorter string). */
export const STRING_SAMPLE_CHARS = 96;

/**
 * A fast 64-bit non-cryptographic hash (cyrb53-style, two 32-bit lanes) of a
 * string, as 16 hex digits. Not for security: for recognizing content.
 */
export function hashString(text: string, seed = ''): string {
  const hasher = createHasher();
  if (seed) hasher.addString(`${seed}\n`);
  hasher.addString(text);
  return hasher.digest();
}

type Hasher = {
  addCode(code: number): void;
  addString(text: string): void;
  digest(): string;
};

function createHasher(): Hasher {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const hasher: Hasher = {
    addCode(code) {
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    },
    addString(text) {
      for (let index = 0; index < text.length; index += 1) hasher.addCode(text.charCodeAt(index));
    },
    digest() {
      let a = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
      a ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
      let b = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
      b ^= Math.imul(a ^ (a >>> 13), 3266489909);
      return (b >>> 0).toString(16).padStart(8, '0') + (a >>> 0).toString(16).padStart(8, '0');
    },
  };
  return hasher;
}

/** Feeds a string's length and a sample of its characters (all of them when short). */
function addSampledString(hasher: Hasher, text: string): void {
  hasher.addCode(0x22);
  hasher.addCode(text.length & 0xffff);
  hasher.addCode(text.length >>> 16);
  if (text.length <= STRING_SAMPLE_CHARS) {
    hasher.addString(text);
    return;
  }
  const step = text.length / STRING_SAMPLE_CHARS;
  for (let sample = 0; sample < STRING_SAMPLE_CHARS; sample += 1)
    hasher.addCode(text.charCodeAt(Math.floor(sample * step)));
  hasher.addCode(text.charCodeAt(text.length - 1));
}

/** Feeds a value's structure: keys in sorted order, numbers, booleans, sampled strings, byte arrays. */
function addValue(hasher: Hasher, value: unknown, depth: number): void {
  if (depth > 64) return;
  switch (typeof value) {
    case 'string':
      addSampledString(hasher, value);
      return;
    case 'number':
    case 'bigint':
      hasher.addString(`#${String(value)}`);
      return;
    case 'boolean':
      hasher.addCode(value ? 0x74 : 0x66);
      return;
    case 'undefined':
      hasher.addCode(0x75);
      return;
    case 'object':
      break;
    default:
      return;
  }
  if (value === null) {
    hasher.addCode(0x6e);
  } else if (Array.isArray(value)) {
    hasher.addCode(0x5b);
    for (const item of value) addValue(hasher, item, depth + 1);
    hasher.addCode(0x5d);
  } else if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : value;
    hasher.addCode(0x62);
    hasher.addCode(bytes.length & 0xffff);
    hasher.addCode(bytes.length >>> 16);
    const step = Math.max(1, bytes.length / STRING_SAMPLE_CHARS);
    for (let index = 0; index < bytes.length; index += step) hasher.addCode(bytes[Math.floor(index)]!);
  } else if (value instanceof URL) {
    addSampledString(hasher, value.href);
  } else {
    hasher.addCode(0x7b);
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record).sort()) {
      if (record[key] === undefined) continue;
      hasher.addString(key);
      hasher.addCode(0x3a);
      addValue(hasher, record[key], depth + 1);
    }
    hasher.addCode(0x7d);
  }
}

/**
 * The content fingerprint of a value (see the module note: keys, numbers,
 * booleans, and sampled strings), chained to `seed` when given. Equal content
 * always gives the same fingerprint, whatever the key order.
 */
export function contentFingerprint(value: unknown, seed = ''): string {
  const hasher = createHasher();
  if (seed) hasher.addString(`${seed}\n`);
  addValue(hasher, value, 0);
  return hasher.digest();
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
  let previous: string | undefined;
  for (const content of contents) {
    previous = nextContentId(content, previous, prefix);
    ids.push(previous);
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
  const seed = previousId === undefined ? '' : previousId.slice(prefix.length);
  return `${prefix}${contentFingerprint(content, seed)}`;
}
