/** Nesting beyond which two values are taken to differ (cycles, or deeper than a content id reads). */
const MAX_DEPTH = 64;

/**
 * Whether two values have the same content: the adapters' one deep equality,
 * strict enough that equal messages always have equal content ids
 * (`contentFingerprint`). Primitives by `===`; plain objects (with or without
 * a prototype) key by key, in any key order, a key whose value is `undefined`
 * counting as absent; arrays item by item; `URL`s by address; `Uint8Array`s
 * and `ArrayBuffer`s of the same class byte by byte. Anything else (other
 * class instances, cycles, nesting past 64 levels) counts as different unless
 * it is the very same object, which only ever costs a fresh content id or a
 * rebuilt part. While something enumerable sits on `Object.prototype` (records
 * are read with `for…in`, which would yield it), only the very same objects
 * count as same.
 *
 * Cheap on what frameworks re-send each call (the AI SDK's prompt, a LangChain
 * thread a checkpointer restored): message and part objects are new, the strings
 * and nested values inside are often the very same, so much of the work is
 * identity checks.
 */
export function sameContent(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (hasEnumerableKey(Object.prototype)) return false;
  return sameValue(left, right, 0);
}

function hasEnumerableKey(value: object): boolean {
  for (const _key in value) return true;
  return false;
}

/** `sameContent` below the prototype check; `depth` is how deep `left` sits already. */
function sameValue(left: unknown, right: unknown, depth: number): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index += 1) {
      const item = left[index];
      const other = right[index];
      if (item !== other && !sameValue(item, other, depth + 1)) return false;
    }
    return true;
  }
  if (Array.isArray(right)) return false;
  const prototype = Object.getPrototypeOf(left);
  const otherPrototype = Object.getPrototypeOf(right);
  if (isPlain(prototype) && isPlain(otherPrototype)) {
    return sameRecord(left as Record<string, unknown>, right as Record<string, unknown>, depth);
  }
  if (prototype !== otherPrototype) return false;
  if (left instanceof URL) return left.href === (right as URL).href;
  if (left instanceof ArrayBuffer || left instanceof Uint8Array) {
    return sameBytes(left, right as ArrayBuffer | Uint8Array);
  }
  return false;
}

/** A plain object's prototype: `Object.prototype`, or none (`Object.create(null)`). */
function isPlain(prototype: unknown): boolean {
  return prototype === Object.prototype || prototype === null;
}

/**
 * Own enumerable keys with defined values, and their values, alike (in any key
 * order). `for…in` allocates nothing and, with nothing enumerable on
 * `Object.prototype`, yields exactly the own enumerable keys of a plain object.
 */
function sameRecord(left: Record<string, unknown>, right: Record<string, unknown>, depth: number): boolean {
  let defined = 0;
  for (const key in left) {
    const value = left[key];
    if (value === undefined) continue;
    const other = right[key];
    if (value !== other && !sameValue(value, other, depth + 1)) return false;
    defined += 1;
  }
  for (const key in right) if (right[key] !== undefined) defined -= 1;
  return defined === 0;
}

function sameBytes(left: ArrayBuffer | Uint8Array, right: ArrayBuffer | Uint8Array): boolean {
  const a = bytesOf(left);
  const b = bytesOf(right);
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function bytesOf(value: ArrayBuffer | Uint8Array): Uint8Array {
  return value instanceof ArrayBuffer ? new Uint8Array(value) : value;
}
