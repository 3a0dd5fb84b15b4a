import { contentFingerprint } from '@compaction/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { deepCopy } from './__fixtures__/prompt-copies.js';
import { sameContent } from './same-content.js';

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

  it('property: two messages are the same exactly when their content ids are', () => {
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
        for (const [index, message] of incoming.entries()) {
          const sameId = contentFingerprint(message) === contentFingerprint(known[index]);
          expect(sameContent(message, known[index])).toBe(sameId);
        }
      }),
      { numRuns: 300 },
    );
  });
});
