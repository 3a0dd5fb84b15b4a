import { describe, expect, it } from 'vitest';
import { sameContent } from './same-content.js';

/** A deep copy with new objects everywhere (bytes and URLs too), as a value rebuilt from storage has. */
function deepCopy<T>(value: T): T {
  if (value instanceof URL) return new URL(value.href) as T;
  if (value instanceof Uint8Array) return new Uint8Array(value) as T;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepCopy(item)])) as T;
  }
  return value;
}

const user = (text: string, extra: object = {}) => ({ role: 'user', content: [{ type: 'text', text, ...extra }] });

describe('sameContent', () => {
  it('sees re-sent messages as new objects as the same, an edit as different', () => {
    const known = [user('a'), user('b'), user('c'), user('d')];
    expect(sameContent(deepCopy(known), known)).toBe(true);
    expect(sameContent([...deepCopy(known.slice(0, 2)), user('edited'), known[3]!], known)).toBe(false);
    expect(sameContent(deepCopy(known.slice(0, 3)), known)).toBe(false);
    expect(sameContent(user('edited'), known[2])).toBe(false);
  });

  it('ignores key order and keys whose value is undefined, like content ids', () => {
    const known = { role: 'user', content: [{ type: 'text', text: 'a', providerOptions: { x: { y: 1 } } }] };
    const reordered = { content: [{ providerOptions: { x: { y: 1 } }, text: 'a', type: 'text' }], role: 'user' };
    const withUndefined = { ...reordered, providerOptions: undefined };
    expect(sameContent(reordered, known)).toBe(true);
    expect(sameContent(withUndefined, known)).toBe(true);
    expect(sameContent(known, withUndefined)).toBe(true);
    expect(sameContent(user('a', { providerOptions: { x: { y: 2 } } }), known)).toBe(false);
    expect(sameContent(user('a', { providerOptions: { x: { y: 1 }, z: {} } }), known)).toBe(false);
  });

  it('compares URLs by address and bytes by value, other class instances only by identity', () => {
    const file = (data: unknown) => ({ role: 'user', content: [{ type: 'file', mediaType: 'image/png', data }] });
    expect(sameContent(file(new URL('https://a.example/x')), file(new URL('https://a.example/x')))).toBe(true);
    expect(sameContent(file(new URL('https://a.example/y')), file(new URL('https://a.example/x')))).toBe(false);
    expect(sameContent(file(new Uint8Array([1, 2])), file(new Uint8Array([1, 2])))).toBe(true);
    expect(sameContent(file(new Uint8Array([1, 3])), file(new Uint8Array([1, 2])))).toBe(false);
    expect(sameContent(file(new Uint8Array([1, 2]).buffer), file(new Uint8Array([1, 2]).buffer))).toBe(true);
    expect(sameContent(file(Buffer.from([1, 2])), file(new Uint8Array([1, 2])))).toBe(false);
    expect(sameContent(file(new Date(0)), file(new Date(0)))).toBe(false);
    const date = new Date(0);
    expect(sameContent(file(date), file(date))).toBe(true);
  });

  it('compares primitives by ===, objects with a prototype of their own and arrays with records as different', () => {
    expect(sameContent('a', 'a')).toBe(true);
    expect(sameContent(1, '1')).toBe(false);
    expect(sameContent(Number.NaN, Number.NaN)).toBe(false);
    expect(sameContent(Object.assign(Object.create(null), { a: 1 }), { a: 1 })).toBe(true);
    expect(sameContent([1], { 0: 1 })).toBe(false);
    expect(sameContent({ 0: 1 }, [1])).toBe(false);
    expect(sameContent(null, {})).toBe(false);
  });

  it('survives cycles (they count as different)', () => {
    const cyclic = (): Record<string, unknown> => {
      const input: Record<string, unknown> = { a: 1 };
      input.self = input;
      return { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input }] };
    };
    expect(sameContent(cyclic(), cyclic())).toBe(false);
  });

  it('with something enumerable on Object.prototype, sees only the very same objects as same', () => {
    const known = [user('a'), user('b')];
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      expect(sameContent(deepCopy(known[0]), known[0])).toBe(false);
      expect(sameContent(known[0], known[0])).toBe(true);
      expect(sameContent(user('b'), known[1])).toBe(false);
    } finally {
      delete prototype.polluted;
    }
    expect(sameContent(deepCopy(known[0]), known[0])).toBe(true);
    expect(sameContent(deepCopy(known[1]), known[1])).toBe(true);
  });
});
