import { countMessageTokens, gptTokenizerCounter, type Message, tiktokenCounter } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { countingCounter } from './__fixtures__/counting-counter.js';
import { sharedTokenCache, tokenCacheFor } from './shared-token-cache.js';

const text = (id: string, value: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: value }] });

describe('sharedTokenCache', () => {
  it('counts a message once, whichever object carries it', () => {
    const counter = countingCounter();
    const cache = sharedTokenCache(counter);
    const tokens = cache.count(text('m1', 'the parser updates the cache'));
    expect(cache.count(text('m1', 'the parser updates the cache'))).toBe(tokens);
    expect(tokens).toBe(countMessageTokens(text('m1', 'the parser updates the cache'), tiktokenCounter()));
    expect(counter.texts).toEqual(['the parser updates the cache']);
    expect(cache.size).toBe(1);
  });

  it('counts other content under the same id apart (a replaced message, another conversation, summary v1)', () => {
    const counter = countingCounter();
    const cache = sharedTokenCache(counter);
    const mine = text('compaction-summary-v1', 'short summary');
    const theirs = text('compaction-summary-v1', 'a much longer summary of another conversation entirely');
    const tokens = cache.count(mine);
    expect(cache.count(theirs)).toBeGreaterThan(tokens);
    expect(cache.count(mine)).toBe(tokens);
    expect(counter.texts).toEqual(['short summary', 'a much longer summary of another conversation entirely']);
  });

  it('keeps at most maxEntries counts, dropping the oldest, and forgets an id', () => {
    const counter = countingCounter();
    const cache = sharedTokenCache(counter, 2);
    for (const id of ['a', 'b', 'c']) cache.count(text(id, `message ${id}`));
    expect(cache.size).toBe(2);
    cache.count(text('a', 'message a'));
    expect(counter.texts).toEqual(['message a', 'message b', 'message c', 'message a']);
    cache.forget('c');
    expect(cache.size).toBe(1);
  });

  it('is one cache per counter name for the whole process, gpt-tokenizer by default', () => {
    const counter = countingCounter();
    expect(tokenCacheFor(counter)).toBe(tokenCacheFor({ ...counter }));
    expect(tokenCacheFor()).toBe(tokenCacheFor(gptTokenizerCounter()));
    expect(tokenCacheFor().counter.name).toBe('gpt-tokenizer-o200k_base');
    expect(tokenCacheFor(counter)).not.toBe(tokenCacheFor());
  });
});
