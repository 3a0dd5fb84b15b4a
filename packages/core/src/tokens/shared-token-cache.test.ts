import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
import { heuristicCounter } from './heuristic-counter.js';
import { sharedTokenCache } from './shared-token-cache.js';

const text = (id: string, value: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: value }] });

describe('sharedTokenCache', () => {
  it('is one cache per counter name and options for the whole process, gpt-tokenizer by default', () => {
    const counter = { ...heuristicCounter(), name: 'shared-test' };
    expect(sharedTokenCache(counter)).toBe(sharedTokenCache({ ...counter }));
    expect(sharedTokenCache()).toBe(sharedTokenCache(gptTokenizerCounter()));
    expect(sharedTokenCache().counter.name).toBe('gpt-tokenizer-o200k_base');
    expect(sharedTokenCache(counter)).not.toBe(sharedTokenCache());
    expect(sharedTokenCache(counter, { keyByContent: true })).not.toBe(sharedTokenCache(counter));
    expect(sharedTokenCache(counter, { maxEntries: 10 })).not.toBe(sharedTokenCache(counter));
  });

  it('shares counts between its users', () => {
    const counted: string[] = [];
    const counter = { name: 'shared-test-counting', countText: (value: string) => counted.push(value) && value.length };
    sharedTokenCache(counter).count(text('m1', 'hello'));
    sharedTokenCache(counter).count(text('m1', 'hello'));
    expect(counted).toEqual(['hello']);
  });
});
