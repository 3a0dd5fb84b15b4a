import { describe, expect, it } from 'vitest';
import { appendLastRequest, splitLastRequest } from './split-last-request.js';

describe('splitLastRequest / appendLastRequest', () => {
  it('round-trips a multi-line request verbatim', () => {
    const request = 'Fix the test.\n\nLast request from user was: (quoted on purpose)\n  keep indentation';
    const text = appendLastRequest('## Goal\nx\n', request);
    expect(text).toBe(`## Goal\nx\n\nLast request from user was: ${request}`);
    expect(splitLastRequest(text)).toEqual({ body: '## Goal\nx', lastRequest: request });
  });

  it('adds nothing for a missing or blank request, and finds none in a text without one', () => {
    expect(appendLastRequest('body', undefined)).toBe('body');
    expect(appendLastRequest('body', '  ')).toBe('body');
    expect(splitLastRequest('body\n')).toEqual({ body: 'body' });
  });
});
