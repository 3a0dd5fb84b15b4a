import type { Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { conversionSource } from './conversion-source.js';

const message = (id: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text: id }] });

describe('conversionSource', () => {
  it('hands out the messages the conversion had when it was made, also after the conversion grew in place', () => {
    const result = [message('a'), message('b')];
    const source = conversionSource(result);
    result.push(message('c'));
    expect(source.length).toBe(2);
    expect(source.messages(0).map((each) => each.id)).toEqual(['a', 'b']);
    expect(source.messages(1)).toEqual([result[1]]);
    expect(source.messages(2)).toEqual([]);
    expect(source.since).toBeUndefined();
  });

  it('says how many first messages are those of the source before', () => {
    const result = [message('a'), message('b')];
    const before = conversionSource(result);
    result.push(message('c'));
    const next = conversionSource(result, { source: before, unchanged: before.length });
    expect(next.length).toBe(3);
    expect(next.since).toEqual({ source: before, unchanged: 2 });
  });
});
