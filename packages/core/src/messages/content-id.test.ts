import { describe, expect, it } from 'vitest';
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
