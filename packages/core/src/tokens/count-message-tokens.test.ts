import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message, Part } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import { countMessageTokens, countPartTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './count-message-tokens.js';
import { heuristicCounter } from './heuristic-counter.js';
import { maxMessageTokens } from './max-message-tokens.js';
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

describe('media inside tool results (r13)', () => {
  const png = Buffer.alloc(300 * 1024, 1).toString('base64');
  const screenshot = (index: number): Message[] => [
    { id: `u${index}`, role: 'user', parts: [{ type: 'text', text: `step ${index}` }] },
    {
      id: `c${index}`,
      role: 'assistant',
      parts: [{ type: 'tool-call', toolCallId: `s${index}`, toolName: 'screenshot', input: {} }],
    },
    {
      id: `r${index}`,
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: `s${index}`,
          toolName: 'screenshot',
          output: { type: 'content', value: [{ type: 'media', mediaType: 'image/png', data: png }] },
        },
      ],
    },
  ];

  it('twelve 300 KB screenshots are counted as images, so nothing is compacted', async () => {
    const session = createCompactionSession({ sessionId: 's', model: 'claude-sonnet-4-5' });
    const events: string[] = [];
    session.on((event) => events.push(event.type));
    for (let index = 0; index < 12; index += 1) await session.append(screenshot(index));
    const { messages, tokens } = await session.prepare();
    expect(events).toEqual([]);
    expect(messages).toHaveLength(36);
    expect(tokens).toBeLessThan(12 * IMAGE_TOKENS + 2_000);
    expect(tokens).toBeGreaterThanOrEqual(12 * IMAGE_TOKENS);
  });

  it('counts every media shape like an image file part, whatever its payload size', () => {
    const data = 'iVBORw0KGgo'.repeat(5_000);
    const shapes: unknown[] = [
      { type: 'content', value: [{ type: 'media', mediaType: 'image/png', data }] },
      { type: 'content', value: [{ type: 'image-data', mediaType: 'image/png', data }] },
      { type: 'content', value: [{ type: 'file-data', mediaType: 'application/pdf', data, filename: 'a.pdf' }] },
      [{ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } }],
      [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }],
      `data:image/jpeg;base64,${data}`,
      { screenshot: `data:image/png;base64,${data}` },
    ];
    const fileCost = countPartTokens({ type: 'file', mediaType: 'image/png', data }, perChar);
    for (const output of shapes) {
      const part: Part = { type: 'tool-result', toolCallId: 'c', toolName: 'shot', output };
      const tokens = countPartTokens(part, perChar);
      expect(tokens).toBeGreaterThanOrEqual(fileCost);
      expect(tokens).toBeLessThan(fileCost + 200);
    }
  });

  it('keeps text that only looks like a media part: a directory listing is text', () => {
    const listing = [
      { type: 'file', name: 'a.ts' },
      { type: 'directory', name: 'src' },
    ];
    const part: Part = { type: 'tool-result', toolCallId: 'c', toolName: 'ls', output: listing };
    expect(countPartTokens(part, perChar)).toBe('ls'.length + JSON.stringify(listing).length);
  });

  it('property: media payload size never changes the count, and the upper bound holds', () => {
    const media = fc.oneof(
      fc.record({
        type: fc.constantFrom('media', 'image-data', 'file-data', 'image'),
        mediaType: fc.constant('image/png'),
        data: fc.base64String({ maxLength: 4_000 }),
      }),
      fc.base64String({ maxLength: 4_000 }).map((data) => `data:image/png;base64,${data}`),
    );
    const output = fc.oneof(
      fc.array(fc.oneof(media, fc.record({ type: fc.constant('text'), text: fc.string() })), { maxLength: 5 }),
      fc.array(fc.oneof(media, fc.string()), { maxLength: 5 }).map((value) => ({ type: 'content', value })),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(media, fc.string(), fc.integer()), { maxKeys: 4 }),
    );
    fc.assert(
      fc.property(output, (value) => {
        const emptied = JSON.parse(
          JSON.stringify(value, (_key, item: unknown) =>
            typeof item === 'string' && item.startsWith('data:')
              ? 'data:image/png;base64,'
              : item && typeof item === 'object' && 'data' in item && 'mediaType' in item
                ? { ...item, data: '' }
                : item,
          ),
        );
        const message = (output: unknown): Message => ({
          id: 'r',
          role: 'tool',
          parts: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output }],
        });
        expect(countMessageTokens(message(value), perChar)).toBe(countMessageTokens(message(emptied), perChar));
        expect(maxMessageTokens(message(value))).toBeGreaterThanOrEqual(
          countMessageTokens(message(value), tiktokenCounter()),
        );
      }),
      { numRuns: 200 },
    );
  });
});
