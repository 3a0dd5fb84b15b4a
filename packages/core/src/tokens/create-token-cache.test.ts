import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import { countMessageTokens } from './count-message-tokens.js';
import { createTokenCache, TOKEN_CACHE_ENTRY_BYTES } from './create-token-cache.js';
import { heuristicCounter } from './heuristic-counter.js';
import type { TokenCounter } from './token-counter.js';

/** A real per-character counter that records which texts it was asked to count. */
function recordingCounter(): TokenCounter & { texts: string[] } {
  const texts: string[] = [];
  return {
    name: 'recording',
    texts,
    countText(text) {
      texts.push(text);
      return text.length;
    },
  };
}

const text = (id: string, value: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: value }] });

describe('createTokenCache', () => {
  it('returns the same count as countMessageTokens', () => {
    const counter = recordingCounter();
    const message = text('a', 'hello');
    expect(createTokenCache(counter).count(message)).toBe(countMessageTokens(message, counter));
  });

  it('counts each message id once', () => {
    const counter = recordingCounter();
    const cache = createTokenCache(counter);
    const history = [text('a', 'one'), text('b', 'two')];
    expect(cache.count(history[0]!) + cache.count(history[1]!)).toBe(4 + 3 + 4 + 3);
    expect(counter.texts).toEqual(['one', 'two']);

    history.push(text('c', 'three'));
    for (const message of history) cache.count(message);
    expect(counter.texts).toEqual(['one', 'two', 'three']);
    expect(cache.size).toBe(3);
  });

  it('trusts the id: a known id is not re-counted, forget makes it count again', () => {
    const counter = recordingCounter();
    const cache = createTokenCache(counter);
    expect(cache.count(text('a', 'short'))).toBe(9);
    expect(cache.count(text('a', 'much longer text'))).toBe(9);

    cache.forget('a');
    expect(cache.size).toBe(0);
    expect(cache.count(text('a', 'much longer text'))).toBe(20);
  });

  it('drops the oldest counts first beyond maxEntries', () => {
    const cache = createTokenCache(heuristicCounter(), { maxEntries: 2 });
    for (const id of ['a', 'b', 'c']) cache.count({ id, role: 'user', parts: [{ type: 'text', text: id }] });
    expect(cache.size).toBe(2);
  });

  it('keyed by content, counts other content under the same id apart (a replaced message, another conversation)', () => {
    const counted: string[] = [];
    const counter = { name: 'counting', countText: (value: string) => counted.push(value) && value.length };
    const cache = createTokenCache(counter, { keyByContent: true });
    const mine = { id: 'm1', role: 'user' as const, parts: [{ type: 'text' as const, text: 'short' }] };
    const theirs = { ...mine, parts: [{ type: 'text' as const, text: 'a much longer text under the same id' }] };
    const tokens = cache.count(mine);
    expect(cache.count(theirs)).toBeGreaterThan(tokens);
    expect(cache.count({ ...mine })).toBe(tokens);
    expect(counted).toEqual(['short', 'a much longer text under the same id']);
    expect(cache.peek).toBeUndefined();
    cache.forget('m1');
    expect(cache.size).toBe(0);
  });

  it('keeps what is used again and drops what was not used for the longest', () => {
    const counter = recordingCounter();
    const cache = createTokenCache(counter, { maxEntries: 4 });
    for (const id of ['a', 'b', 'c', 'd']) cache.count(text(id, id));
    cache.count(text('a', 'a')); // used again: kept
    for (const id of ['e', 'f']) cache.count(text(id, id));
    counter.texts.length = 0;
    cache.count(text('a', 'a'));
    expect(counter.texts).toEqual([]);
    cache.count(text('b', 'b'));
    expect(counter.texts).toEqual(['b']);
  });

  it('stays within maxEntries and maxBytes under any sequence of counts, in constant time each', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: TOKEN_CACHE_ENTRY_BYTES + 2, max: 2_000 }),
        (ids, maxEntries, maxBytes) => {
          const counter = recordingCounter();
          const cache = createTokenCache(counter, { maxEntries, maxBytes });
          for (const id of ids) {
            const message = text(`m${id}`, `text ${id}`);
            expect(cache.count(message)).toBe(countMessageTokens(message, counter));
            expect(cache.size).toBeLessThanOrEqual(maxEntries);
            expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
    );
  });

  it('takes many more counts than its bound, keeping between half of it and all of it', () => {
    const counter = { name: 'length', countText: (value: string) => value.length };
    const messages = Array.from({ length: 200_000 }, (_, index) => text(`m${index}`, 'x'));
    const cache = createTokenCache(counter, { maxEntries: 1_000 });
    for (const message of messages) cache.count(message);
    expect(cache.size).toBeLessThanOrEqual(1_000);
    expect(cache.size).toBeGreaterThanOrEqual(500);
  });

  it('refuses a bound below one with a typed error that says what to do', () => {
    for (const options of [{ maxEntries: 0 }, { maxBytes: -5 }, { maxEntries: Number.NaN }]) {
      expect(() => createTokenCache(heuristicCounter(), options)).toThrow(InvalidSettingsError);
    }
    expect(() => createTokenCache(heuristicCounter(), { maxBytes: 0 })).toThrow(/leave it out for no bound/);
  });

  it('exposes the counter it was built with', () => {
    const counter = recordingCounter();
    expect(createTokenCache(counter).counter).toBe(counter);
  });
});
