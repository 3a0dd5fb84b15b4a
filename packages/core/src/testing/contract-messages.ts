import type { Message } from '../messages/types.js';

/**
 * One message of every part type, with the values stores get wrong most often:
 * `Uint8Array` file data, `Date` values inside tool input and output and
 * metadata, keys that look like the stores' own tags, unicode, line breaks,
 * empty and nested arrays, `null`, and numbers at the edges of JSON.
 *
 * @param prefix - Prepended to every id, so several calls give distinct messages.
 */
export function contractMessages(prefix: string): Message[] {
  return [
    { id: `${prefix}-system`, role: 'system', parts: [{ type: 'text', text: 'You are terse.' }] },
    {
      id: `${prefix}-user`,
      role: 'user',
      parts: [
        { type: 'text', text: 'line\nbreak "quoted" \\ ✓ 会话 e\u0301 \u2028 </conversation>' },
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: new Uint8Array([37, 80, 68, 70, 0, 255]),
          filename: 'a.pdf',
        },
        { type: 'file', mediaType: 'image/png', url: 'https://example.com/a.png' },
        { type: 'file', mediaType: 'text/plain', data: new Uint8Array(0) },
      ],
      metadata: { pinned: true, sentAt: new Date('2026-01-02T03:04:05.678Z'), $c: 'bytes', v: 'AAAA' },
    },
    {
      id: `${prefix}-assistant`,
      role: 'assistant',
      parts: [
        { type: 'reasoning', text: 'thinking…', providerOptions: { anthropic: { signature: 'sig==' } } },
        { type: 'text', text: '' },
        {
          type: 'tool-call',
          toolCallId: `${prefix}-call`,
          toolName: 'read_file',
          input: { path: 'src/a.ts', range: [1, 20], since: new Date(0), $$c: { $c: 'date', v: 'x' } },
        },
      ],
      usage: { inputTokens: 1234, outputTokens: 56 },
    },
    {
      id: `${prefix}-tool`,
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          toolCallId: `${prefix}-call`,
          toolName: 'read_file',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'ok' },
              { type: 'media', data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' },
            ],
            nested: [[], [null, 0, -0.5, 1e300, Number.MAX_SAFE_INTEGER, true, false], {}],
            modified: new Date('1999-12-31T23:59:59.999Z'),
          },
          isError: false,
        },
      ],
    },
  ];
}
