import { describe, expect, it } from 'vitest';
import type { Message, Part } from '../messages/types.js';
import { countMessageTokens, countPartTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './count-message-tokens.js';
import { heuristicCounter } from './heuristic-counter.js';
import { tiktokenCounter } from './tiktoken-counter.js';

/** One token per character: makes each rule visible in the expected numbers. */
const perChar = heuristicCounter(1);

const message = (parts: Part[], role: Message['role'] = 'user'): Message => ({ id: 'm1', role, parts });

describe('countMessageTokens', () => {
  it('adds a fixed overhead per message, even an empty one', () => {
    expect(MESSAGE_OVERHEAD_TOKENS).toBe(4);
    expect(countMessageTokens(message([]), perChar)).toBe(4);
  });

  it('counts text and reasoning parts as text', () => {
    const parts: Part[] = [
      { type: 'reasoning', text: 'think' },
      { type: 'text', text: 'hello' },
    ];
    expect(countMessageTokens(message(parts, 'assistant'), perChar)).toBe(4 + 5 + 5);
    expect(countMessageTokens(message([{ type: 'text', text: 'hello world' }]), tiktokenCounter())).toBe(4 + 2);
  });

  it('counts a tool call as its name plus the JSON of its input', () => {
    const input = { command: 'ls -la' };
    const part: Part = { type: 'tool-call', toolCallId: 'c1', toolName: 'Bash', input };
    expect(countPartTokens(part, perChar)).toBe('Bash'.length + JSON.stringify(input).length);
    expect(countPartTokens({ ...part, input: undefined }, perChar)).toBe(4);
  });

  it('counts a tool result as its name plus the output, strings as-is and others as JSON', () => {
    const base = { type: 'tool-result', toolCallId: 'c1', toolName: 'Read' } as const;
    expect(countPartTokens({ ...base, output: 'abc' }, perChar)).toBe(4 + 3);
    expect(countPartTokens({ ...base, output: { lines: [1, 2] } }, perChar)).toBe(4 + '{"lines":[1,2]}'.length);
  });

  it('does not throw on an input that JSON cannot serialize', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const part: Part = { type: 'tool-call', toolCallId: 'c1', toolName: 'T', input: circular };
    expect(countPartTokens(part, perChar)).toBe(1 + '[object Object]'.length);
    expect(countPartTokens({ ...part, input: 10n }, perChar)).toBe(1 + 2);
  });

  it('counts images and non-text files flat, text files by their content', () => {
    expect(IMAGE_TOKENS).toBe(1_600);
    const image: Part = { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo='.repeat(1000) };
    expect(countPartTokens(image, perChar)).toBe(IMAGE_TOKENS);
    expect(countPartTokens({ type: 'file', mediaType: 'image/jpeg', url: 'https://x/y.jpg' }, perChar)).toBe(1_600);
    expect(countPartTokens({ type: 'file', mediaType: 'application/pdf', data: 'JVBERi0x' }, perChar)).toBe(1_600);
    expect(countPartTokens({ type: 'file', mediaType: 'text/plain', data: 'abc' }, perChar)).toBe(3);
    expect(countPartTokens({ type: 'file', mediaType: 'text/plain', data: new Uint8Array(3) }, perChar)).toBe(1_600);
  });

  it('sums every part of a message', () => {
    const parts: Part[] = [
      { type: 'text', text: 'ab' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'T', input: {} },
      { type: 'file', mediaType: 'image/png', data: '' },
    ];
    expect(countMessageTokens(message(parts, 'assistant'), perChar)).toBe(4 + 2 + (1 + 2) + 1_600);
  });
});
