import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { conversionSource } from './conversion-source.js';
import { releaseConversion } from './held-conversion.js';
import { extendToCore, toCoreMessages } from './to-core-messages.js';

const message = (id: string) => new HumanMessage({ id, content: `text of ${id}` });

describe('conversionSource', () => {
  it('hands out the messages the conversion had when it was made, also after the conversion grew in place', () => {
    const conversion = extendToCore(undefined, [message('a'), message('b')]);
    const source = conversionSource(conversion);
    const grown = extendToCore(conversion, [...conversion.source, message('c')]);
    expect(grown).toBe(conversion);
    expect(source.length).toBe(2);
    expect(source.messages(0).map((each) => each.id)).toEqual(['a', 'b']);
    expect(source.messages(1)).toEqual([conversion.result[1]]);
    expect(source.messages(2)).toEqual([]);
    expect(source.since).toBeUndefined();
  });

  it('says how many first messages are those of the source before', () => {
    const conversion = extendToCore(undefined, [message('a'), message('b')]);
    const before = conversionSource(conversion);
    extendToCore(conversion, [...conversion.source, message('c')]);
    const next = conversionSource(conversion, { source: before, unchanged: before.length });
    expect(next.length).toBe(3);
    expect(next.since).toEqual({ source: before, unchanged: 2 });
  });

  it('converts what was let go again only when asked for it, from the messages the conversion holds now', () => {
    const conversion = extendToCore(undefined, [message('a'), message('b')]);
    releaseConversion(conversion);
    expect(conversion.result).toEqual([]);
    // The next run, restored: other objects, one edited under its id (same length), and a new message.
    const edited = new HumanMessage({ id: 'b', content: 'text of B' });
    const now = [message('a'), edited, new AIMessage({ id: 'c', content: 'new' })];
    expect(extendToCore(conversion, now)).toBe(conversion);
    const source = conversionSource(conversion);
    expect(source.messages(2).map((each) => each.id)).toEqual(['c']);
    expect(conversion.released).toBe(2); // reading only the new message converted nothing old
    expect(source.messages(1)).toEqual(toCoreMessages(now).slice(1));
    expect(source.messages(0)).toEqual(toCoreMessages(now));
    expect(conversion.released).toBe(0);
  });
});
