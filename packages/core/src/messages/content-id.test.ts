import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeCodeFixture, claudeCodeFixtureNames } from '../../test/fixtures.js';
import {
  CONTENT_ID_PREFIX,
  chainedContentIds,
  contentFingerprint,
  hashString,
  nextContentId,
  STRING_SAMPLE_CHARS,
} from './content-id.js';

describe('content ids', () => {
  it('are stable for equal content, whatever the key order, and chained', () => {
    const a = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    const b = { content: [{ text: 'hi', type: 'text' }], role: 'user' };
    expect(contentFingerprint(a)).toBe(contentFingerprint(b));
    const [first, second] = chainedContentIds([a, a]);
    expect(first).not.toBe(second);
    expect(chainedContentIds([a, a])).toEqual([first, second]);
  });

  it('change with any short string, any number, boolean or key, and with a long string’s length or sampled characters', () => {
    const base = { text: 'x'.repeat(10_000), n: 1, flag: true, short: 'abc' };
    const fingerprint = contentFingerprint(base);
    expect(contentFingerprint({ ...base, short: 'abd' })).not.toBe(fingerprint);
    expect(contentFingerprint({ ...base, n: 2 })).not.toBe(fingerprint);
    expect(contentFingerprint({ ...base, flag: false })).not.toBe(fingerprint);
    expect(contentFingerprint({ ...base, extra: 0 })).not.toBe(fingerprint);
    expect(contentFingerprint({ ...base, text: 'x'.repeat(10_001) })).not.toBe(fingerprint);
    expect(contentFingerprint({ ...base, text: `y${'x'.repeat(9_999)}` })).not.toBe(fingerprint);
    expect(contentFingerprint({ ...base, text: `${'x'.repeat(9_999)}y` })).not.toBe(fingerprint);
  });

  it('reads every character of strings up to the sample size', () => {
    const text = 'a'.repeat(STRING_SAMPLE_CHARS);
    for (const at of [0, 17, STRING_SAMPLE_CHARS - 1]) {
      const edited = `${text.slice(0, at)}b${text.slice(at + 1)}`;
      expect(contentFingerprint(edited)).not.toBe(contentFingerprint(text));
    }
  });

  it('hashes bytes by length and samples', () => {
    expect(contentFingerprint(new Uint8Array([1, 2, 3]))).not.toBe(contentFingerprint(new Uint8Array([1, 2, 4])));
    expect(contentFingerprint(new Uint8Array([1, 2, 3]))).toBe(contentFingerprint(new Uint8Array([1, 2, 3]).buffer));
  });

  it('hashString is a 16-hex-digit hash', () => {
    expect(hashString('abc')).toMatch(/^[0-9a-f]{16}$/);
    expect(hashString('abc')).not.toBe(hashString('abd'));
    expect(hashString('abc', 'seed')).not.toBe(hashString('abc'));
  });
});

describe('nextContentId', () => {
  it('extends a chain exactly as chainedContentIds over the whole list does, whatever the prefix', () => {
    const contents = [{ role: 'user', text: 'a' }, { role: 'assistant', text: 'b' }, 'c', [1, 2]];
    for (const prefix of [CONTENT_ID_PREFIX, 'sys_', 'x']) {
      const whole = chainedContentIds(contents, prefix);
      let previous: string | undefined;
      const extended = contents.map((content) => {
        previous = nextContentId(content, previous, prefix);
        return previous;
      });
      expect(extended).toEqual(whole);
      expect(whole.every((id) => id.startsWith(prefix))).toBe(true);
    }
    expect(chainedContentIds(['a'])[0]!.startsWith(CONTENT_ID_PREFIX)).toBe(true);
  });
});

/**
 * The implementation of the previous release, kept verbatim as the reference: ids are
 * persisted (the usage record's `lastMessageId`, the compaction state's message ids), so
 * the faster one must give byte-identical output for every input.
 */
const reference = (() => {
  type Hasher = { addCode(code: number): void; addString(text: string): void; digest(): string };
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
  function hashString(text: string, seed = ''): string {
    const hasher = createHasher();
    if (seed) hasher.addString(`${seed}\n`);
    hasher.addString(text);
    return hasher.digest();
  }
  function contentFingerprint(value: unknown, seed = ''): string {
    const hasher = createHasher();
    if (seed) hasher.addString(`${seed}\n`);
    addValue(hasher, value, 0);
    return hasher.digest();
  }
  function nextContentId(content: unknown, previousId: string | undefined, prefix = CONTENT_ID_PREFIX): string {
    const seed = previousId === undefined ? '' : previousId.slice(prefix.length);
    return `${prefix}${contentFingerprint(content, seed)}`;
  }
  function chainedContentIds(contents: readonly unknown[], prefix = CONTENT_ID_PREFIX): string[] {
    const ids: string[] = [];
    let previous: string | undefined;
    for (const content of contents) {
      previous = nextContentId(content, previous, prefix);
      ids.push(previous);
    }
    return ids;
  }
  return { hashString, contentFingerprint, nextContentId, chainedContentIds };
})();

/** Numbers where `String()` is easy to get wrong: int32 edges, -0, huge, tiny, non-finite. */
const awkwardNumber = fc.oneof(
  fc.integer(),
  fc.integer({ min: -120, max: 120 }),
  fc.constantFrom(0, -0, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e21, -1e21, 1e-7, 0.1),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_VALUE),
  fc.double(),
);

/** Strings of any UTF-16 code units (lone surrogates included), short or past the sample size. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: STRING_SAMPLE_CHARS - 2, maxLength: 700 }),
  fc.string({ maxLength: 8 }),
);

/** JSON-like values and the other things a message may carry (bytes, URLs, undefined, bigints, class instances). */
const contentValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyString,
    awkwardNumber,
    fc.boolean(),
    fc.constantFrom(null, undefined),
    fc.bigInt(),
    fc.uint8Array({ maxLength: 300 }),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => bytes.buffer),
    fc.webUrl().map((url) => new URL(url)),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(anyString, tie('value'), { maxKeys: 5 }),
    // Past the small-sort size, keys out of order, numeric-looking keys (which objects enumerate first).
    fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.nat(40).map(String)), tie('value'), {
      minKeys: 15,
      maxKeys: 30,
    }),
  ),
})).value;

describe('content ids against the previous release (byte-identical, ids are persisted)', () => {
  it('every fixture line, raw and as core messages, chained and one by one', () => {
    for (const name of claudeCodeFixtureNames()) {
      const text = claudeCodeFixture(name);
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      const raw = lines.map((line) => JSON.parse(line) as unknown);
      expect(chainedContentIds(raw)).toEqual(reference.chainedContentIds(raw));
      for (const line of lines) expect(hashString(line, 'seed')).toBe(reference.hashString(line, 'seed'));
      const messages = parseClaudeCodeSession(text).messages.map(({ role, parts }) => ({ role, parts }));
      expect(chainedContentIds(messages, 'cc_')).toEqual(reference.chainedContentIds(messages, 'cc_'));
      let previous: string | undefined;
      for (const message of messages) {
        const next = nextContentId(message, previous, 'cc_');
        expect(next).toBe(reference.nextContentId(message, previous, 'cc_'));
        previous = next;
      }
    }
  });

  it('any value, any seed, any prefix (property)', () => {
    fc.assert(
      fc.property(contentValue, fc.string({ unit: 'binary', maxLength: 20 }), (value, seed) => {
        expect(contentFingerprint(value, seed)).toBe(reference.contentFingerprint(value, seed));
        expect(contentFingerprint(value)).toBe(reference.contentFingerprint(value));
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(
        fc.array(contentValue, { maxLength: 6 }),
        fc.string({ maxLength: 4 }),
        fc.option(fc.string({ unit: 'binary', maxLength: 24 }), { nil: undefined }),
        (contents, prefix, previous) => {
          expect(chainedContentIds(contents, prefix)).toEqual(reference.chainedContentIds(contents, prefix));
          expect(nextContentId(contents, previous, prefix)).toBe(reference.nextContentId(contents, previous, prefix));
        },
      ),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(anyString, fc.string({ unit: 'binary', maxLength: 20 }), (text, seed) => {
        expect(hashString(text, seed)).toBe(reference.hashString(text, seed));
      }),
    );
  });

  it('values nested past the depth limit, sparse arrays, boxed values, class instances, typed arrays, null prototypes', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 80; level += 1) deep = level % 2 ? [deep, level] : { level, deep };
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const nullPrototype = Object.assign(Object.create(null) as object, { b: 1, a: [2] });
    // biome-ignore lint/suspicious/noSparseArray: a hole reads as undefined, as it did before
    const sparse = [1, , 3];
    const values = [deep, sparse, new Point(1, 2), new Int16Array([1, -2, 300]), nullPrototype, new Date(0)];
    for (const value of [...values, values, Object(3), Object('boxed')]) {
      expect(contentFingerprint(value)).toBe(reference.contentFingerprint(value));
    }
  });

  it('every small integer, each power of ten and its neighbours, the int32 edges', () => {
    const numbers: number[] = [];
    for (let value = -1_100; value <= 1_100; value += 1) numbers.push(value);
    for (let power = 1; power <= 1e21; power *= 10) numbers.push(power - 1, power, power + 1, -power - 1, -power);
    numbers.push(2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 0.5, -0.5, -0);
    for (const value of numbers)
      expect(contentFingerprint(value), String(value)).toBe(reference.contentFingerprint(value));
  });

  it('a getter that fingerprints while a fingerprint runs leaves both right', () => {
    const inner = { a: 'inner', n: 7 };
    const seen: string[] = [];
    const outer = {
      b: 1,
      get a() {
        seen.push(contentFingerprint(inner, 'nested'));
        return 'outer';
      },
    };
    expect(contentFingerprint(outer)).toBe(reference.contentFingerprint({ a: 'outer', b: 1 }));
    expect(seen[0]).toBe(reference.contentFingerprint(inner, 'nested'));
  });
});
