import { describe, expect, it } from 'vitest';
import { sessionFileName } from './session-file-name.js';

describe('sessionFileName', () => {
  it('keeps safe ids as they are', () => {
    expect(sessionFileName('chat-42_v1.0')).toBe('chat-42_v1.0');
  });

  it('escapes every other character as UTF-8 bytes', () => {
    expect(sessionFileName('user/42')).toBe('user%2F42');
    expect(sessionFileName('a:b')).toBe('a%3Ab');
    expect(sessionFileName('é')).toBe('%C3%A9');
    expect(sessionFileName('%2f')).toBe('%252f');
    expect(sessionFileName('\uD800')).toBe('%uD800');
  });

  it('hashes ids with capitals, long ids and Windows device names', () => {
    expect(sessionFileName('Chat')).toMatch(/^Chat~[0-9a-f]{16}$/);
    expect(sessionFileName('nul')).toMatch(/^nul~[0-9a-f]{16}$/);
    const long = sessionFileName('x'.repeat(500));
    expect(long).toMatch(/^x{100}~[0-9a-f]{16}$/);
  });

  it('maps distinct ids to distinct names, also ignoring case', () => {
    const ids = [
      'a/b',
      'a%2Fb',
      'a%2fb',
      'a:b',
      'a_b',
      'Chat',
      'chat',
      'CHAT',
      '日本語',
      '日本語/1',
      '\uD800',
      '\uD801',
      '\uFFFD',
      `${'x'.repeat(200)}1`,
      `${'x'.repeat(200)}2`,
      '',
      '.',
      '..',
      'chat~0123456789abcdef',
    ];
    const names = ids.map((id) => sessionFileName(id).toLowerCase());
    expect(new Set(names).size).toBe(ids.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9._%~-]*$/);
  });
});
