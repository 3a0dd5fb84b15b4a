import { describe, expect, it } from 'vitest';
import { gptTokenizerCounter } from '../tokens/gpt-tokenizer-counter.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { sharedTokenCache } from '../tokens/shared-token-cache.js';
import { conversationTokenCache } from './conversation-token-cache.js';

describe('conversationTokenCache', () => {
  it('is the one shared cache of a counter, keyed by content, whichever adapter asks', () => {
    const counter = { ...heuristicCounter(), name: 'conversation-token-cache-test' };
    expect(conversationTokenCache(counter)).toBe(conversationTokenCache({ ...counter }));
    expect(conversationTokenCache(counter)).toBe(sharedTokenCache(counter, { keyByContent: true }));
    expect(conversationTokenCache()).toBe(conversationTokenCache(gptTokenizerCounter()));
    expect(conversationTokenCache().peek).toBeUndefined();
  });

  it('counts a message replaced under its id again', () => {
    const counted: string[] = [];
    const counter = { name: 'conversation-token-cache-replace', countText: (text: string) => counted.push(text) && 1 };
    const cache = conversationTokenCache(counter);
    cache.count({ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'before' }] });
    cache.count({ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'before' }] });
    cache.count({ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'after' }] });
    expect(counted).toEqual(['before', 'after']);
  });
});
