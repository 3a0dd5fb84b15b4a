import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptSplitCount } from './kept-split-count.js';
import { loadModule } from './load-module.js';

type EncodingModule = typeof import('gpt-tokenizer/encoding/o200k_base');

const ordinary = { disallowedSpecial: new Set<string>() };

/** Texts the split regex cuts in every way: letters, digits, case runs, contractions, whitespace runs, marks, surrogates. */
const pieces = fc.constantFrom(
  'hello',
  ' World',
  "it's",
  " they'LL",
  '12345',
  '\n\n',
  '  \t ',
  '\r\n',
  'ÉCOLE',
  'naïve',
  '漢字',
  '🎉',
  '\u{1F468}\u200D\u{1F469}',
  '\uD800',
  '\uDC00',
  'e\u0301',
  '<|endoftext|>',
  '<|im_start|>',
  '{"a":[1,2]}',
  '=>',
  '    ',
  'x',
);
const texts = fc.oneof(
  fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
);

describe('keptSplitCount', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)(
    "counts exactly what gpt-tokenizer's countTokens counts, special-token text as ordinary (%s)",
    (encoding) => {
      const tokenizer = loadModule<EncodingModule>(`gpt-tokenizer/encoding/${encoding}`);
      const count = keptSplitCount(tokenizer.default);
      // The pinned gpt-tokenizer has what the count reads: an upgrade that moves it fails here, not silently.
      expect(count).toBeDefined();
      for (const text of ['', 'hello world', '<|endoftext|> and <|fim_prefix|>', ' '.repeat(600), '\uD83D'])
        expect(count!(text)).toBe(tokenizer.countTokens(text, ordinary));
      fc.assert(
        fc.property(texts, (text) => {
          expect(count!(text)).toBe(tokenizer.countTokens(text, ordinary));
        }),
        { numRuns: 400 },
      );
    },
    60_000,
  );

  it('is undefined for an encoding without the processor it reads (the caller keeps countTokens)', () => {
    const regex = /\w+/gu;
    const lookups = { getBpeRankFromString: () => 1, bytePairEncode: () => [1] };
    for (const encoding of [
      undefined,
      null,
      'o200k_base',
      {},
      { bytePairEncodingCoreProcessor: null },
      { bytePairEncodingCoreProcessor: { ...lookups } },
      { bytePairEncodingCoreProcessor: { ...lookups, tokenSplitRegex: '\\w+' } },
      { bytePairEncodingCoreProcessor: { tokenSplitRegex: regex, getBpeRankFromString: () => 1 } },
      { bytePairEncodingCoreProcessor: { tokenSplitRegex: regex, bytePairEncode: () => [1] } },
    ])
      expect(keptSplitCount(encoding)).toBeUndefined();
  });

  it('cuts the pieces matchAll cuts, empty matches included (one code point on, surrogate pairs whole)', () => {
    // A split regex that can match empty: each piece counts as its length + 1, so a piece cut elsewhere changes the sum.
    const reference = (regex: RegExp, text: string) =>
      [...text.matchAll(regex)].reduce((sum, [piece]) => sum + piece.length + 1, 0);
    const processorOf = (regex: RegExp) => ({
      bytePairEncodingCoreProcessor: {
        tokenSplitRegex: regex,
        getBpeRankFromString: () => undefined,
        bytePairEncode: (piece: string) => Array.from({ length: piece.length + 1 }, () => 0),
      },
    });
    for (const regex of [/a*/gu, /a*/g, /(?:)/gu, /\p{L}*/gu, /a*/u]) {
      const count = keptSplitCount(processorOf(regex))!;
      const global = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 40 }),
            fc.array(fc.constantFrom('a', 'b', '🎉', '\uD800', 'é')).map((parts) => parts.join('')),
          ),
          (text) => {
            expect(count(text)).toBe(reference(global, text));
            expect(count(text)).toBe(reference(global, text)); // a second count starts from the text's start again
          },
        ),
        { numRuns: 200 },
      );
    }
  });

  it("leaves the encoding's own regex as it was", () => {
    const tokenizer = loadModule<EncodingModule>('gpt-tokenizer/encoding/o200k_base');
    const processor = (tokenizer.default as unknown as { bytePairEncodingCoreProcessor: { tokenSplitRegex: RegExp } })
      .bytePairEncodingCoreProcessor;
    const before = processor.tokenSplitRegex.lastIndex;
    keptSplitCount(tokenizer.default)!('some text to count, twice over');
    expect(processor.tokenSplitRegex.lastIndex).toBe(before);
  });
});
