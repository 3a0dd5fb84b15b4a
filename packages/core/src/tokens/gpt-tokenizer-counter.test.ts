import { describe, expect, it } from 'vitest';
import { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
import { tiktokenCounter } from './tiktoken-counter.js';

describe('gptTokenizerCounter', () => {
  const texts = [
    '',
    'hello world',
    'function parse(input: string): Ast {\n  return new Parser(input).parse();\n}',
    'Héllo wörld — 漢字 and emoji 🎉 <|endoftext|>',
    `${' '.repeat(1_200)}x${'='.repeat(900)}`,
  ];

  it.each(['o200k_base', 'cl100k_base'] as const)('counts exactly what tiktoken counts (%s)', (encoding) => {
    const ours = gptTokenizerCounter(encoding);
    const reference = tiktokenCounter(encoding);
    for (const text of texts) expect(ours.countText(text)).toBe(reference.countText(text));
  });

  it('rejects an unknown encoding, naming the choices', () => {
    expect(() => gptTokenizerCounter('p50k' as never)).toThrow(/o200k_base, cl100k_base/);
  });
});
