import { contentFingerprint } from '@compaction/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { countSameMessages } from './count-same-messages.js';

/** A deep copy with new objects everywhere (also bytes and URLs), as a re-sent request has. */
function deepCopy<T>(value: T): T {
  if (value instanceof URL) return new URL(value.href) as T;
  if (value instanceof Uint8Array) return new Uint8Array(value) as T;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepCopy(item)])) as T;
  }
  return value;
}

const count = (incoming: readonly object[], known: readonly object[]) =>
  countSameMessages(incoming, 0, incoming.length, known);

const user = (text: string, extra: object = {}) => ({ role: 'user', content: [{ type: 'text', text, ...extra }] });

describe('countSameMessages', () => {
  it('counts re-sent messages as new objects up to the first edit', () => {
    const known = [user('a'), user('b'), user('c'), user('d')];
    expect(count(deepCopy(known), known)).toBe(4);
    expect(count([...deepCopy(known.slice(0, 2)), user('edited'), known[3]!], known)).toBe(2);
    expect(count(deepCopy(known.slice(0, 3)), known)).toBe(3);
    expect(count([...deepCopy(known), user('e')], known)).toBe(4);
  });

  it('reads only incoming[from..to)', () => {
    const known = [user('b'), user('c')];
    expect(countSameMessages([user('a'), user('b'), user('c'), user('d')], 1, 3, known)).toBe(2);
    expect(countSameMessages([user('a'), user('b'), user('c')], 1, 2, known)).toBe(1);
  });

  it('ignores key order and keys whose value is undefined, like content ids', () => {
    const known = [{ role: 'user', content: [{ type: 'text', text: 'a', providerOptions: { x: { y: 1 } } }] }];
    const reordered = [{ content: [{ providerOptions: { x: { y: 1 } }, text: 'a', type: 'text' }], role: 'user' }];
    const withUndefined = [{ ...reordered[0]!, providerOptions: undefined }];
    expect(count(reordered, known)).toBe(1);
    expect(count(withUndefined, known)).toBe(1);
    expect(count(known, withUndefined)).toBe(1);
    expect(count([user('a', { providerOptions: { x: { y: 2 } } })], known)).toBe(0);
    expect(count([user('a', { providerOptions: { x: { y: 1 }, z: {} } })], known)).toBe(0);
  });

  it('compares URLs by address and bytes by value, other class instances only by identity', () => {
    const file = (data: unknown) => ({ role: 'user', content: [{ type: 'file', mediaType: 'image/png', data }] });
    expect(count([file(new URL('https://a.example/x'))], [file(new URL('https://a.example/x'))])).toBe(1);
    expect(count([file(new URL('https://a.example/y'))], [file(new URL('https://a.example/x'))])).toBe(0);
    expect(count([file(new Uint8Array([1, 2]))], [file(new Uint8Array([1, 2]))])).toBe(1);
    expect(count([file(new Uint8Array([1, 3]))], [file(new Uint8Array([1, 2]))])).toBe(0);
    expect(count([file(new Uint8Array([1, 2]).buffer)], [file(new Uint8Array([1, 2]).buffer)])).toBe(1);
    expect(count([file(Buffer.from([1, 2]))], [file(new Uint8Array([1, 2]))])).toBe(0);
    expect(count([file(new Date(0))], [file(new Date(0))])).toBe(0);
    const date = new Date(0);
    expect(count([file(date)], [file(date)])).toBe(1);
  });

  it('survives cycles (they count as different)', () => {
    const cyclic = (): Record<string, unknown> => {
      const input: Record<string, unknown> = { a: 1 };
      input.self = input;
      return { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input }] };
    };
    expect(count([cyclic()], [cyclic()])).toBe(0);
  });

  it('with something enumerable on Object.prototype, counts only the very same objects', () => {
    const known = [user('a'), user('b')];
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      expect(count(deepCopy(known), known)).toBe(0);
      expect(count([known[0]!, user('b')], known)).toBe(1);
    } finally {
      delete prototype.polluted;
    }
    expect(count(deepCopy(known), known)).toBe(2);
  });

  it('property: a message counts as same exactly when its content id would be the same', () => {
    const edited = promptArbitrary.chain((prompt) =>
      fc.tuple(
        fc.constant(prompt),
        fc.array(fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 1 })), { maxLength: 2 }).map((edits) => {
          const copy = deepCopy(prompt) as unknown as Record<string, unknown>[];
          for (const [at, value] of edits) {
            const message = copy[at % Math.max(1, copy.length)];
            if (!message) continue;
            const content = message.content;
            if (Array.isArray(content) && content.length > 0) {
              (content[at % content.length] as Record<string, unknown>).edited = value;
            } else message.providerOptions = { edit: { value } };
          }
          return copy;
        }),
      ),
    );
    fc.assert(
      fc.property(edited, ([known, incoming]) => {
        const firstDifferent = incoming.findIndex(
          (message, index) => contentFingerprint(message) !== contentFingerprint(known[index]),
        );
        expect(count(incoming, known)).toBe(firstDifferent < 0 ? incoming.length : firstDifferent);
      }),
      { numRuns: 300 },
    );
  });
});
