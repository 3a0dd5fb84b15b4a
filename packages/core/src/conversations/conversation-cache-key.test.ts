import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationCacheKey } from './conversation-cache-key.js';

describe('conversationCacheKey', () => {
  it('gives two different (conversation, model) pairs two different keys', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.string(), fc.option(fc.string(), { nil: undefined })),
        fc.tuple(fc.string(), fc.option(fc.string(), { nil: undefined })),
        ([conversation, model], [otherConversation, otherModel]) => {
          const same = conversation === otherConversation && model === otherModel;
          expect(
            conversationCacheKey(conversation, model) === conversationCacheKey(otherConversation, otherModel),
          ).toBe(same);
        },
      ),
    );
    expect(conversationCacheKey('a\u0000b', undefined)).not.toBe(conversationCacheKey('b', 'a'));
  });
});
