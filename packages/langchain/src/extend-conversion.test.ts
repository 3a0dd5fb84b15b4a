import { describe, expect, it } from 'vitest';
import { extendConversion } from './extend-conversion.js';

type Item = { value: number };

function converter() {
  const converted: Item[] = [];
  const convert = (item: Item) => {
    converted.push(item);
    return item.value * 10;
  };
  return {
    converted,
    all: (source: readonly Item[]) => source.map(convert),
    rest: (source: readonly Item[], start: number) => source.slice(start).map(convert),
  };
}

describe('extendConversion', () => {
  const [a, b, c, d] = [1, 2, 3, 4].map((value) => ({ value })) as [Item, Item, Item, Item];

  it('converts only what was appended to the very objects it converted before', () => {
    const { converted, all, rest } = converter();
    const first = extendConversion(undefined, [a, b], all, rest);
    const second = extendConversion(first, [a, b, c, d], all, rest);
    expect(second.result).toEqual([10, 20, 30, 40]);
    expect(converted).toEqual([a, b, c, d]);
    expect(extendConversion(second, [a, b, c, d], all, rest).result).toBe(second.result);
  });

  it('converts everything when an earlier object changed, the source shrank or the rest cannot go alone', () => {
    const { converted, all, rest } = converter();
    const first = extendConversion(undefined, [a, b], all, rest);
    const copy = { value: 1 };
    expect(extendConversion(first, [copy, b, c], all, rest).result).toEqual([10, 20, 30]);
    expect(extendConversion(first, [a], all, rest).result).toEqual([10]);
    expect(extendConversion(first, [a, b, c], all, () => undefined).result).toEqual([10, 20, 30]);
    expect(converted).toEqual([a, b, copy, b, c, a, a, b, c]);
  });

  it('is not fooled by a source array that changes in place afterwards', () => {
    const { all, rest } = converter();
    const source = [a, b];
    const first = extendConversion(undefined, source, all, rest);
    source[0] = c;
    source.push(d);
    expect(extendConversion(first, source, all, rest).result).toEqual([30, 20, 40]);
  });
});
