import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { CONVERSATION_CACHE_BYTES, createConversationCache } from './create-conversation-cache.js';

type Entry = { name: string; bytes: number };
const entry = (name: string, bytes = 10): Entry => ({ name, bytes });
const sizeOf = (value: Entry) => value.bytes;

describe('createConversationCache', () => {
  it('makes an entry once per key and hands the same one back', () => {
    const cache = createConversationCache({ sizeOf });
    let made = 0;
    const create = () => {
      made += 1;
      return entry('a');
    };
    const first = cache.obtain('a', create);
    expect(cache.obtain('a', create)).toBe(first);
    expect(made).toBe(1);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(10);
  });

  it('replaces a kept entry that the reuse check refuses', () => {
    const cache = createConversationCache({ sizeOf });
    const first = cache.obtain('a', () => entry('first'));
    const second = cache.obtain(
      'a',
      () => entry('second'),
      (kept) => kept.name !== 'first',
    );
    expect(second).not.toBe(first);
    expect(second.name).toBe('second');
    expect(
      cache.obtain(
        'a',
        () => entry('third'),
        (kept) => kept.name !== 'first',
      ),
    ).toBe(second);
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used conversations past the byte bound, and reports them', () => {
    const evicted: string[] = [];
    const cache = createConversationCache({ sizeOf, maxBytes: 30, onEvict: (key) => evicted.push(key) });
    cache.put('a', entry('a'));
    cache.put('b', entry('b'));
    cache.put('c', entry('c'));
    expect(cache.get('a')?.name).toBe('a'); // a is now the most recently used
    cache.put('d', entry('d'));
    expect(evicted).toEqual(['b']);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.bytes).toBe(30);
  });

  it('re-reads an entry’s size when it is used, so a growing conversation pushes others out', () => {
    const cache = createConversationCache({ sizeOf, maxBytes: 100 });
    const growing = entry('a');
    cache.put('a', growing);
    cache.put('b', entry('b'));
    growing.bytes = 95;
    cache.get('a');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.bytes).toBe(95);
  });

  it('reads an entry’s size again when a task of its conversation settles, and applies the bound', async () => {
    const cache = createConversationCache({ sizeOf, maxBytes: 100 });
    const growing = entry('a');
    cache.put('b', entry('b'));
    cache.put('a', growing);
    await cache.run('a', async () => {
      growing.bytes = 95;
    });
    expect(cache.bytes).toBe(95);
    expect(cache.get('b')).toBeUndefined();
    await expect(
      cache.run('a', async () => {
        growing.bytes = 50;
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(cache.bytes).toBe(50);
  });

  it('keeps an entry bigger than the bound until another one is used', () => {
    const cache = createConversationCache({ sizeOf, maxBytes: 10 });
    cache.put('big', entry('big', 50));
    expect(cache.get('big')?.name).toBe('big');
    cache.put('small', entry('small', 5));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('small')?.name).toBe('small');
  });

  it('take removes the entry (its caller holds it alone); delete forgets it', () => {
    const cache = createConversationCache({ sizeOf });
    const a = entry('a');
    cache.put('a', a);
    expect(cache.take('a')).toBe(a);
    expect(cache.take('a')).toBeUndefined();
    cache.put('a', a);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('runs the tasks of one conversation one after another, even after a failure; others freely', async () => {
    const cache = createConversationCache({ sizeOf });
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = cache.run('a', async () => {
      await gate;
      order.push('a1');
      throw new Error('a1 failed');
    });
    const second = cache.run('a', async () => {
      order.push('a2');
      return 2;
    });
    const other = cache.run('b', async () => {
      order.push('b1');
      return 1;
    });
    expect(await other).toBe(1);
    release();
    await expect(first).rejects.toThrow('a1 failed');
    expect(await second).toBe(2);
    expect(order).toEqual(['b1', 'a1', 'a2']);
  });

  it('refuses a bound that is not a positive number of bytes, saying what to do', () => {
    for (const maxBytes of [0, -1, Number.NaN]) {
      expect(() => createConversationCache({ sizeOf, maxBytes })).toThrow(InvalidSettingsError);
    }
    expect(() => createConversationCache({ sizeOf, maxBytes: 0 })).toThrow(String(CONVERSATION_CACHE_BYTES));
  });

  it('behaves as a reference LRU under any sequence of operations', () => {
    const operation = fc.oneof(
      fc.record({
        type: fc.constant('put' as const),
        key: fc.integer({ min: 0, max: 6 }),
        bytes: fc.integer({ min: 1, max: 40 }),
      }),
      fc.record({ type: fc.constant('get' as const), key: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ type: fc.constant('take' as const), key: fc.integer({ min: 0, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), fc.integer({ min: 1, max: 100 }), (operations, maxBytes) => {
        const cache = createConversationCache({ sizeOf, maxBytes });
        /** Oldest first. */
        let model: { key: string; bytes: number }[] = [];
        const bound = () => {
          let total = model.reduce((sum, item) => sum + item.bytes, 0);
          while (total > maxBytes && model.length > 1) total -= model.shift()!.bytes;
        };
        for (const step of operations) {
          const key = String(step.key);
          const index = model.findIndex((item) => item.key === key);
          if (step.type === 'put') {
            if (index >= 0) model.splice(index, 1);
            model.push({ key, bytes: step.bytes });
            bound();
            cache.put(key, entry(key, step.bytes));
          } else if (step.type === 'get') {
            const found = cache.get(key);
            expect(found !== undefined).toBe(index >= 0);
            if (index >= 0) {
              model.push(...model.splice(index, 1));
              bound();
            }
          } else {
            expect(cache.take(key) !== undefined).toBe(index >= 0);
            if (index >= 0) model.splice(index, 1);
          }
          expect(cache.size).toBe(model.length);
          expect(cache.bytes).toBe(model.reduce((sum, item) => sum + item.bytes, 0));
        }
        model = [];
      }),
    );
  });
});
