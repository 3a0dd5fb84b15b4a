import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import type { CompactionSessionOptions } from '../session/types.js';
import { memoryStore } from '../store/memory-store.js';
import { invalidSettingOf } from '../testing/invalid-setting-of.js';
import { checkSessionId, isBlankString } from './check-session-id.js';

/** Every whitespace character `String.prototype.trim` removes, alone and in runs. */
const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028'];
const blanks = ['', ...WHITESPACE, ...WHITESPACE.map((space) => space.repeat(3)), WHITESPACE.join(''), ' \t \n '];

describe('checkSessionId', () => {
  it('refuses every blank string, with the setting named and what to pass', () => {
    for (const blank of blanks) {
      expect(isBlankString(blank)).toBe(true);
      expect(invalidSettingOf(() => checkSessionId(blank))).toBe('sessionId');
      expect(() => checkSessionId(blank)).toThrow(/non-empty string \(your chat id\)/);
    }
    expect(() => checkSessionId('   ')).toThrow(/only whitespace.*got the string " {3}".*unset variable/);
  });

  it('refuses what is not a string, and says it is required when missing', () => {
    for (const value of [undefined, null, 42, {}, [], true, Symbol.for('s')]) {
      expect(() => checkSessionId(value)).toThrow(InvalidSettingsError);
    }
    expect(() => checkSessionId(undefined)).toThrow(/is required/);
  });

  it('describes a Buffer or a large object shortly, not byte by byte', () => {
    expect(() => checkSessionId(Buffer.from('chat-1'))).toThrow(/got a Buffer of 6 bytes$/);
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, index]));
    expect(() => checkSessionId(wide)).toThrow(/got an object with keys k0, .*k7, … \(50 keys\)$/);
  });

  it('names the caller’s setting and words', () => {
    expect(invalidSettingOf(() => checkSessionId(' ', { setting: 'chatId' }))).toBe('chatId');
    expect(() => checkSessionId('', { what: 'the thread id' })).toThrow(/\(the thread id\)/);
  });

  it('accepts every id with a visible character, spaces around it included (the valid neighbours)', () => {
    for (const space of WHITESPACE) {
      for (const id of [`a${space}`, `${space}a`, `${space}chat 1${space}`, '.', '0', 'é', '🙂']) {
        expect(isBlankString(id)).toBe(false);
        expect(() => checkSessionId(id)).not.toThrow();
      }
    }
  });
});

describe('createCompactionSession sessionId', () => {
  it('refuses a whitespace-only sessionId at once, as it refuses ""', () => {
    for (const blank of blanks) {
      const make = () =>
        createCompactionSession({ sessionId: blank, store: memoryStore() } as CompactionSessionOptions);
      expect(invalidSettingOf(make)).toBe('sessionId');
    }
  });

  it('keeps accepting an id with spaces around it, and stores under it unchanged', async () => {
    const store = memoryStore();
    const session = createCompactionSession({ sessionId: ' chat 1 ', store });
    await session.append([{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
    expect((await store.loadHistory(' chat 1 ')).map((message) => message.id)).toEqual(['m1']);
    expect(await store.loadHistory('chat 1')).toEqual([]);
  });
});
