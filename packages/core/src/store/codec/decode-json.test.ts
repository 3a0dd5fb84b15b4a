import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJson } from './decode-json.js';
import { encodeValue, TAG } from './encode-value.js';

const DOLLAR = 36;

/** How stored JSON was decoded before the walk: a `JSON.parse` reviver, the reference to match. */
function withReviver(text: string): unknown {
  return JSON.parse(text, function revive(_key, value: unknown) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const fields = value as Record<string, unknown>;
    if (TAG in fields) {
      const data = fields.v;
      if (typeof data === 'string') {
        if (fields[TAG] === 'bytes') return new Uint8Array(Buffer.from(data, 'base64'));
        if (fields[TAG] === 'date') return new Date(data);
      }
      throw new Error(`holds an unknown tagged value ${JSON.stringify(fields).slice(0, 80)}`);
    }
    if (!Object.keys(fields).some((name) => name.charCodeAt(0) === DOLLAR)) return value;
    return Object.fromEntries(
      Object.entries(fields).map(([name, item]) => [name.charCodeAt(0) === DOLLAR ? name.slice(1) : name, item]),
    );
  });
}

const outcome = (decode: (text: string) => unknown, text: string) => {
  try {
    return { value: decode(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

/** Keys that exercise escaping: `$`-prefixed ones, the tag itself, `v`. */
const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('$', '$c', '$$c', '$x', 'v', '$v', '$$', '__proto__'),
);

/** Values a message may hold: JSON, `Uint8Array`, `Date`, nested under any keys. */
const storable = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      // JSON has no -0 (JSON.stringify(-0) is "0"): a stored -0 reads back as 0, as in every JSON store.
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
      fc.boolean(),
      fc.constant(null),
    ),
    fc.uint8Array({ maxLength: 8 }),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

/** Stored JSON as written, or hand-edited: tags with any kind and payload, `$` keys at any depth. */
const storedJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)),
    fc.record({
      [TAG]: fc.constantFrom('bytes', 'date', 'other', 7),
      v: fc.oneof(fc.constant('AQID'), fc.constant('2026-11-25T00:00:00.000Z'), fc.integer()),
    }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

describe('decodeJson', () => {
  it('gives back whatever encodeValue stored, Uint8Array, Date and $ keys included', () => {
    fc.assert(
      fc.property(storable, (value) => {
        expect(decodeJson(JSON.stringify(encodeValue(value)))).toStrictEqual(value);
      }),
      { numRuns: 800 },
    );
  });

  it('decodes any stored JSON as the reviver did: the same value, or the same error', () => {
    fc.assert(
      fc.property(storedJson, (value) => {
        const text = JSON.stringify(value);
        expect(outcome(decodeJson, text)).toStrictEqual(outcome(withReviver, text));
      }),
      { numRuns: 800 },
    );
  });

  it('keeps an own __proto__ key a key, at the top and inside escaped objects, without touching prototypes', () => {
    const value = JSON.parse(
      '{"__proto__":{"a":1},"$x":{"__proto__":[1],"when":{"$c":"date","v":"2026-01-01T00:00:00.000Z"}}}',
    );
    const decoded = decodeJson(JSON.stringify(encodeValue(value))) as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.keys(decoded)).toEqual(['__proto__', '$x']);
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toEqual({ a: 1 });
    const inner = decoded.$x as Record<string, unknown>;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toEqual([1]);
  });

  it('a "$ inside a string is text, not a tag', () => {
    expect(decodeJson('{"text":"echo \\"$HOME\\"","v":{"$$c":"date"}}')).toEqual({
      text: 'echo "$HOME"',
      v: { $c: 'date' },
    });
  });
});
