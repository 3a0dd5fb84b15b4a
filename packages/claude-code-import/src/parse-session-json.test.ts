import type { Message } from '@compaction/core';
import { InvalidMessageError, InvalidStateError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { parseSessionJson, stringifySessionJson } from './parse-session-json.js';

const messages: Message[] = [
  { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'list files' }] },
  {
    id: 'm2',
    role: 'assistant',
    parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'Bash', input: { command: 'ls' } }],
    usage: { inputTokens: 100, outputTokens: 5 },
  },
  { id: 'm3', role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'Bash', output: 'a.ts' }] },
];

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('parseSessionJson', () => {
  it('reads what stringifySessionJson writes', () => {
    const text = stringifySessionJson(messages);
    expect(JSON.parse(text)).toMatchObject({ format: 'compaction-session', version: 1 });
    expect(parseSessionJson(text)).toEqual({ format: 'compaction-session', version: 1, messages });
  });

  it.each([
    ['not JSON', '{"format": ', /session JSON: not valid JSON/],
    ['an array', '[]', /expected a JSON object with "format", "version" and "messages"/],
    [
      'another format',
      '{"format": "other", "version": 1, "messages": []}',
      /"format" is "other", expected "compaction-session"/,
    ],
    ['a later version', '{"format": "compaction-session", "version": 2, "messages": []}', /unsupported "version" 2/],
  ])('rejects %s with an InvalidStateError that says what is wrong', (_case, text, message) => {
    const error = errorOf(() => parseSessionJson(text));
    expect(InvalidStateError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('names the first invalid message', () => {
    const text = JSON.stringify({
      format: 'compaction-session',
      version: 1,
      messages: [messages[0], { id: 'x', role: 'bot', parts: [] }],
    });
    const error = errorOf(() => parseSessionJson(text));
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect((error as InvalidMessageError).index).toBe(1);
  });
});
