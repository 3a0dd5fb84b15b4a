import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptArbitrary } from './__fixtures__/prompt-arbitraries.js';
import { conversationKey, promptConversationKey } from './conversation-key.js';
import { promptToMessages } from './convert-prompt.js';

describe('conversationKey', () => {
  it('keys two conversations that open with the same message apart once the model answered', () => {
    const opening = { role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] };
    const reply = (text: string) => ({ role: 'assistant' as const, content: [{ type: 'text' as const, text }] });
    const a = promptToMessages([{ role: 'system', content: 'be brief' }, opening, reply('Hello!')]);
    const b = promptToMessages([{ role: 'system', content: 'be brief' }, opening, reply('Hi there.')]);
    expect(conversationKey(a)).not.toBe(conversationKey(b));
    // The same conversation, re-sent with more messages, keeps its key.
    const longer = promptToMessages([{ role: 'system', content: 'be brief' }, opening, reply('Hello!'), opening]);
    expect(conversationKey(longer)).toBe(conversationKey(a));
    // A system prompt that changes per request does not change the key.
    const otherSystem = promptToMessages([{ role: 'system', content: 'today is Monday' }, opening, reply('Hello!')]);
    expect(conversationKey(otherSystem)).toBe(conversationKey(a));
  });
});

describe('promptConversationKey', () => {
  it('is conversationKey of the converted prompt, read from its opening messages alone', () => {
    const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
    const reply = (text: string) => ({ role: 'assistant' as const, content: [{ type: 'text' as const, text }] });
    const system = (content: string) => ({ role: 'system' as const, content });
    const prompts = [
      [],
      [system('be brief')],
      [system('be brief'), user('hi')],
      [system('be brief'), user('hi'), reply('Hello!'), user('more')],
      [user('hi'), system('now terse'), reply('Hello!')],
      [system('a'), system('b'), user('hi'), system('c'), system('d'), reply('Hi.'), user('x')],
    ];
    for (const prompt of prompts) expect(promptConversationKey(prompt)).toBe(conversationKey(promptToMessages(prompt)));
  });

  it('property: is conversationKey of the converted prompt for any generated prompt', () => {
    fc.assert(
      fc.property(promptArbitrary, (prompt) => {
        expect(promptConversationKey(prompt)).toBe(conversationKey(promptToMessages(prompt)));
      }),
      { numRuns: 300 },
    );
  });
});
