import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import {
  createConversationMemory,
  PROCESS_CONVERSATION_BYTES,
  PROCESS_COUNTED_CONVERSATION_BYTES,
  processConversationMemory,
  processCountedConversationMemory,
} from './conversation-memory.js';
import { createConversationCache } from './create-conversation-cache.js';

type Entry = { name: string; bytes: number };
const entry = (name: string, bytes = 10): Entry => ({ name, bytes });
const sizeOf = (value: Entry) => value.bytes;

describe('conversation memory shared by caches', () => {
  it('bounds the entries of every cache together, dropping the least recently used of them all', () => {
    const memory = createConversationMemory(30);
    const evicted: string[] = [];
    const sessions = createConversationCache({ sizeOf, memory, onEvict: (key) => evicted.push(`sessions:${key}`) });
    const conversions = createConversationCache({
      sizeOf,
      memory,
      onEvict: (key) => evicted.push(`conversions:${key}`),
    });
    sessions.put('a', entry('a'));
    conversions.put('a', entry('a'));
    sessions.put('b', entry('b'));
    expect(memory.bytes).toBe(30);
    expect(memory.size).toBe(3);
    conversions.put('b', entry('b')); // drops sessions:a, the oldest of the four
    expect(evicted).toEqual(['sessions:a']);
    expect(sessions.get('a')).toBeUndefined();
    expect(conversions.get('a')?.name).toBe('a'); // now the most recently used
    sessions.put('c', entry('c', 15));
    expect(evicted).toEqual(['sessions:a', 'sessions:b', 'conversions:b']);
    expect(memory.bytes).toBe(25);
    expect(sessions.bytes + conversions.bytes).toBe(memory.bytes);
    expect(sessions.size + conversions.size).toBe(memory.size);
  });

  it('frees the budget when an entry is taken or deleted, and follows a growing entry', async () => {
    const memory = createConversationMemory(100);
    const one = createConversationCache({ sizeOf, memory });
    const other = createConversationCache({ sizeOf, memory });
    const growing = entry('growing');
    one.put('g', growing);
    other.put('x', entry('x'));
    expect(one.take('g')).toBe(growing);
    expect(memory.bytes).toBe(10);
    one.put('g', growing);
    await one.run('g', async () => {
      growing.bytes = 95;
    });
    expect(other.get('x')).toBeUndefined(); // evicted by the growth of another cache's entry
    expect(memory.bytes).toBe(95);
    expect(one.delete('g')).toBe(true);
    expect(memory.bytes).toBe(0);
    expect(memory.size).toBe(0);
  });

  it('is one budget per process unless a cache is given its own', () => {
    expect(processConversationMemory()).toBe(processConversationMemory());
    expect(processConversationMemory().maxBytes).toBe(PROCESS_CONVERSATION_BYTES);
    expect(createConversationMemory().maxBytes).toBe(PROCESS_CONVERSATION_BYTES);
  });

  it('refuses a bad bound, a budget it did not make, and a budget given with maxBytes, saying what to do', () => {
    for (const maxBytes of [0, -1, Number.NaN, '10' as unknown as number]) {
      expect(() => createConversationMemory(maxBytes)).toThrow(InvalidSettingsError);
    }
    expect(() => createConversationMemory(0)).toThrow(String(PROCESS_CONVERSATION_BYTES));
    const forged = { maxBytes: 10, bytes: 0, size: 0 };
    expect(() => createConversationCache({ sizeOf, memory: forged })).toThrow(/createConversationMemory/);
    expect(() => createConversationCache({ sizeOf, memory: createConversationMemory(10), maxBytes: 10 })).toThrow(
      /give one of them/,
    );
  });

  it('behaves as one reference LRU over the entries of all its caches, under any sequence of operations', () => {
    const operation = fc.record({
      type: fc.constantFrom('put' as const, 'get' as const, 'take' as const, 'delete' as const),
      cache: fc.integer({ min: 0, max: 2 }),
      key: fc.integer({ min: 0, max: 4 }),
      bytes: fc.integer({ min: 1, max: 40 }),
    });
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 80 }), fc.integer({ min: 1, max: 100 }), (operations, maxBytes) => {
        const memory = createConversationMemory(maxBytes);
        const evicted: string[] = [];
        const caches = [0, 1, 2].map((index) =>
          createConversationCache({ sizeOf, memory, onEvict: (key) => evicted.push(`${index}/${key}`) }),
        );
        /** Oldest first, over all caches. */
        const model: { id: string; bytes: number }[] = [];
        const expectedEvicted: string[] = [];
        const bound = () => {
          let total = model.reduce((sum, item) => sum + item.bytes, 0);
          while (total > maxBytes && model.length > 1) {
            const dropped = model.shift()!;
            total -= dropped.bytes;
            expectedEvicted.push(dropped.id);
          }
        };
        for (const step of operations) {
          const cache = caches[step.cache]!;
          const key = String(step.key);
          const id = `${step.cache}/${key}`;
          const index = model.findIndex((item) => item.id === id);
          if (step.type === 'put') {
            if (index >= 0) model.splice(index, 1);
            model.push({ id, bytes: step.bytes });
            bound();
            cache.put(key, entry(id, step.bytes));
          } else if (step.type === 'get') {
            expect(cache.get(key) !== undefined).toBe(index >= 0);
            if (index >= 0) {
              model.push(...model.splice(index, 1));
              bound();
            }
          } else {
            const found = step.type === 'take' ? cache.take(key) !== undefined : cache.delete(key);
            expect(found).toBe(index >= 0);
            if (index >= 0) model.splice(index, 1);
          }
          expect(evicted).toEqual(expectedEvicted);
          expect(memory.size).toBe(model.length);
          expect(memory.bytes).toBe(model.reduce((sum, item) => sum + item.bytes, 0));
          expect(caches.reduce((sum, each) => sum + each.bytes, 0)).toBe(memory.bytes);
        }
      }),
    );
  });

  it('keeps conversations held counted, not loaded, in a budget of their own that loaded ones never evict', () => {
    const counted = processCountedConversationMemory();
    expect(processCountedConversationMemory()).toBe(counted);
    expect(counted).not.toBe(processConversationMemory());
    expect(counted.maxBytes).toBe(PROCESS_COUNTED_CONVERSATION_BYTES);
    const light = createConversationCache({ sizeOf, memory: counted });
    const heavy = createConversationCache({ sizeOf, memory: processConversationMemory() });
    light.put('thread', entry('thread', 15_000));
    heavy.put('huge', entry('huge', PROCESS_CONVERSATION_BYTES + 1)); // fills the other budget alone
    expect(light.get('thread')?.name).toBe('thread');
    light.delete('thread');
    heavy.delete('huge');
  });
});
