import { describe, expect, it } from 'vitest';
import { HELD_CONVERSATION_BYTES, HELD_MESSAGE_BYTES, heldMessagesBytes } from './held-messages-bytes.js';

describe('heldMessagesBytes', () => {
  it('grows by one message’s estimate per message, from a fixed cost per conversation', () => {
    expect(heldMessagesBytes(0)).toBe(HELD_CONVERSATION_BYTES);
    expect(heldMessagesBytes(200) - heldMessagesBytes(199)).toBe(HELD_MESSAGE_BYTES);
    expect(heldMessagesBytes(10, 1_000)).toBe(HELD_CONVERSATION_BYTES + 10_000);
  });
});
