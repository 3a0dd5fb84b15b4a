/** The key that marks a tagged value in stored JSON; user keys starting with `$` get one more `$`. */
export const TAG = '$c';

const DOLLAR = 36;

/** Why a value cannot be stored, with the path to it (e.g. `parts[0].output.size`). */
export class UnstorableValueError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`${path || 'the value'} ${problem}`);
    this.name = 'UnstorableValueError';
    this.path = path;
  }
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function key(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? (path ? `${path}.${name}` : name) : `${path}[${JSON.stringify(name)}]`;
}

function walk(value: unknown, path: string, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new UnstorableValueError(path, `is ${value}, which JSON cannot hold`);
      return value;
    case 'bigint':
      throw new UnstorableValueError(path, 'is a BigInt, which JSON cannot hold: convert it to a string or number');
    case 'undefined':
      throw new UnstorableValueError(path, 'is undefined inside an array, which JSON turns into null');
    case 'function':
    case 'symbol':
      throw new UnstorableValueError(path, `is a ${typeof value}, which cannot be stored`);
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Uint8Array)
    return { [TAG]: 'bytes', v: Buffer.from(object.buffer, object.byteOffset, object.byteLength).toString('base64') };
  if (object instanceof Date) {
    const time = object.getTime();
    if (Number.isNaN(time)) throw new UnstorableValueError(path, 'is an invalid Date');
    return { [TAG]: 'date', v: object.toISOString() };
  }
  if (ancestors.has(object))
    throw new UnstorableValueError(path, 'refers back to itself (a cycle), which JSON cannot hold');
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      const out = new Array<unknown>(object.length);
      for (let index = 0; index < object.length; index++)
        out[index] = walk(object[index], `${path}[${index}]`, ancestors);
      return out;
    }
    if (!isPlainObject(object)) {
      const name = (object as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new UnstorableValueError(
        path,
        `is a ${name}, which cannot be stored: only plain objects, arrays, strings, finite numbers, booleans, null, Uint8Array and Date can`,
      );
    }
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(object)) {
      const item = (object as Record<string, unknown>)[name];
      if (item === undefined) continue;
      const stored = name.charCodeAt(0) === DOLLAR ? `$${name}` : name;
      const encoded = walk(item, key(path, name), ancestors);
      // An own `__proto__` key (JSON.parse makes them) stays a key: assigning it would set the prototype and lose it.
      if (stored === '__proto__')
        Object.defineProperty(out, stored, { value: encoded, writable: true, enumerable: true, configurable: true });
      else out[stored] = encoded;
    }
    return out;
  } finally {
    ancestors.delete(object);
  }
}

/**
 * Turns `value` into what the stores write as JSON: `Uint8Array` becomes
 * `{"$c":"bytes","v":<base64>}`, `Date` becomes `{"$c":"date","v":<ISO>}`,
 * and object keys starting with `$` get one more `$`, so no user data can pass
 * for a tag. Anything JSON would change or drop silently is refused.
 *
 * @param value - What to store.
 * @param path - Where `value` sits, for the error (e.g. `messages[2]`).
 * @throws UnstorableValueError naming the path of a `BigInt`, a cycle, a
 *   non-finite number, `undefined` in an array, a function, a symbol, or a
 *   class instance other than `Uint8Array` and `Date`.
 */
export function encodeValue(value: unknown, path = ''): unknown {
  return walk(value, path, new Set());
}
