import { describe, expect, it } from 'vitest';
import { conversationKey } from './conversation-key.js';
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
