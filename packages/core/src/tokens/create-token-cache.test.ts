import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { countMessageTokens } from './count-message-tokens.js';
import { createTokenCache } from './create-token-cache.js';
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

  it('exposes the counter it was built with', () => {
    const counter = recordingCounter();
    expect(createTokenCache(counter).counter).toBe(counter);
  });
});
