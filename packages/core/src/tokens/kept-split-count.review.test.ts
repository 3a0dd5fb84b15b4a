import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countInRuns } from './count-in-runs.js';
import { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
import { keptSplitCount } from './kept-split-count.js';
import { loadModule } from './load-module.js';

// Review of the kept split regex (issue 16, session 8), session 9: the count with the regex kept
// compiled is gpt-tokenizer's own `countTokens` on the inputs that stress a split regex — long
// runs of one class, `\r\n` runs between spaces, combining marks, astral and lone surrogates at
// every position, zero-width joiners, digit runs, apostrophes of every kind — and the session's
// counter (`countInRuns` over it) is the same slicing over `countTokens`.

type EncodingModule = typeof import('gpt-tokenizer/encoding/o200k_base');

const ordinary = { disallowedSpecial: new Set<string>() };

/** Pieces that sit on the split regex's edges. */
const edgy = fc.constantFrom(
  '\r\n',
  '\r\n\r\n',
  ' \r\n ',
  '\n \n',
  '\r',
  '\t\r\n\t',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u200d',
  '\u200b',
  '\u0301',
  '\u0301\u0302\u0303',
  'e\u0301\u0301',
  'ก\u0e31\u0e49',
  '\u{1F3F3}\uFE0F\u200D\u{1F308}',
  '\u{1F44D}\u{1F3FD}',
  '\u{10348}',
  '\u{1D400}\u{1D401}',
  '\uD83D',
  '\uDE00',
  '\uDE00\uD83D',
  "'s",
  "'S",
  '’s',
  "''",
  "'",
  '0',
  '1234567',
  '١٢٣',
  'ǅ',
  'ß',
  'İ',
  'ﬁ',
  'A',
  'aB',
  'HTTPServer',
  'Ω',
  'שלום',
  '\u202e',
  '\0',
  '\u0085',
  '.',
  '...',
  '—',
  '<|endoftext|>',
  '<|endofprompt|>',
  ' ',
  '  ',
);

/** A long run of one kind, as tool output brings (at and around countInRuns' 500-character slices). */
const run = fc
  .tuple(
    fc.constantFrom(' ', '\n', '\r\n', 'a', 'Z', '7', '🎉', 'e\u0301', '\uD800', '漢', '-', ' a', '\t'),
    fc.integer({ min: 1, max: 1_400 }),
  )
  .map(([unit, times]) => unit.repeat(times));

const texts = fc.oneof(
  fc.array(edgy, { maxLength: 40 }).map((parts) => parts.join('')),
  fc
    .array(fc.oneof(edgy, run, fc.string({ unit: 'binary', maxLength: 20 })), { maxLength: 8 })
    .map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 600 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 200 }),
);

describe('keptSplitCount on adversarial text (review)', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)(
    'property: counts what countTokens counts, and the session counter what countInRuns over countTokens counts (%s)',
    (encoding) => {
      const tokenizer = loadModule<EncodingModule>(`gpt-tokenizer/encoding/${encoding}`);
      const kept = keptSplitCount(tokenizer.default)!;
      const reference = (text: string) => tokenizer.countTokens(text, ordinary);
      const counter = gptTokenizerCounter(encoding);
      fc.assert(
        fc.property(texts, (text) => {
          expect(kept(text)).toBe(reference(text));
          expect(counter.countText(text)).toBe(text.length === 0 ? 0 : countInRuns(text, reference));
        }),
        { numRuns: 600 },
      );
    },
    120_000,
  );

  it('counts the same after a count threw midway (the kept regex starts from the text’s start again)', () => {
    const tokenizer = loadModule<EncodingModule>('gpt-tokenizer/encoding/o200k_base');
    const processor = (tokenizer.default as unknown as { bytePairEncodingCoreProcessor: Record<string, unknown> })
      .bytePairEncodingCoreProcessor;
    // A count interrupted inside the loop (what an out-of-memory or a stack overflow would do) leaves
    // the kept regex's lastIndex mid-text: the next count must not go on from there.
    const original = processor.bytePairEncode as (piece: string) => number[];
    const kept = keptSplitCount({
      bytePairEncodingCoreProcessor: {
        tokenSplitRegex: processor.tokenSplitRegex,
        getBpeRankFromString: (processor.getBpeRankFromString as (piece: string) => number | undefined).bind(processor),
        bytePairEncode: (piece: string) => {
          if (piece.includes('boom')) throw new Error('interrupted');
          return original.call(processor, piece);
        },
      },
    })!;
    expect(() => kept('some words then boomxyzzy and more')).toThrow('interrupted');
    const text = 'some words then zyxxyzzy and more';
    expect(kept(text)).toBe(tokenizer.countTokens(text, ordinary));
  });
});
