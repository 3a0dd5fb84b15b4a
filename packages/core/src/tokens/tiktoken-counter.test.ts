import { get_encoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { MAX_RUN_CHARS } from './count-in-runs.js';
import { tiktokenCounter } from './tiktoken-counter.js';

describe('tiktokenCounter', () => {
  it('counts pinned o200k_base values', () => {
    const counter = tiktokenCounter();
    expect(counter.name).toBe('tiktoken-o200k_base');
    expect(counter.countText('hello world')).toBe(2);
    expect(counter.countText('Hello, world!')).toBe(4);
    expect(counter.countText('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(counter.countText('const x = { a: 1 };\n')).toBe(9);
    expect(counter.countText('こんにちは世界')).toBe(2);
  });

  it('counts pinned cl100k_base values, which differ from o200k_base', () => {
    const counter = tiktokenCounter('cl100k_base');
    expect(counter.name).toBe('tiktoken-cl100k_base');
    expect(counter.countText('hello world')).toBe(2);
    expect(counter.countText('こんにちは世界')).toBe(4);
    expect(counter.countText('🙂🙃')).toBe(5);
  });

  it('counts the empty string as 0', () => {
    expect(tiktokenCounter().countText('')).toBe(0);
    expect(tiktokenCounter('cl100k_base').countText('')).toBe(0);
  });

  it('counts special-token text as ordinary text instead of throwing', () => {
    const counter = tiktokenCounter();
    expect(counter.countText('<|endoftext|>')).toBe(7);
    expect(() => counter.countText('before <|im_start|>system<|im_end|> after')).not.toThrow();
  });

  it('matches the tokenizer exactly on ordinary mixed text', () => {
    const text = [
      '## Plan\nRefactor `findCutPoint` so tool calls stay paired.\n',
      'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      JSON.stringify({ command: 'ls -la /tmp', description: 'List files', timeout: 120_000 }),
      '\nÜber 12.5% der Nutzer — 数据 — sagen: "ok"!\n\t\tindented\n',
    ]
      .join('\n')
      .repeat(20);
    const encoder = get_encoding('o200k_base');
    try {
      expect(tiktokenCounter().countText(text)).toBe(encoder.encode_ordinary(text).length);
    } finally {
      encoder.free();
    }
  });

  it(`counts runs longer than ${MAX_RUN_CHARS} characters in slices`, () => {
    const counter = tiktokenCounter();
    // exact would be 150; slices of 500 + 500 + 200 count 63 + 63 + 25
    expect(counter.countText('x'.repeat(1200))).toBe(151);
    expect(counter.countText(`a ${'x'.repeat(1200)} b`)).toBe(2 + 151 + 1);
    expect(counter.countText(' '.repeat(5000))).toBeGreaterThan(0);
  });

  it('rejects an unknown encoding with a message naming the choices', () => {
    expect(() => tiktokenCounter('p50k_base' as 'o200k_base')).toThrow(InvalidSettingsError);
    expect(() => tiktokenCounter('p50k_base' as 'o200k_base')).toThrow(/o200k_base, cl100k_base/);
  });
});
