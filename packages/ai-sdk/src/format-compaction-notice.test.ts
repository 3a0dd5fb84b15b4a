import { describe, expect, it } from 'vitest';
import { formatCompactionNotice } from './format-compaction-notice.js';

describe('formatCompactionNotice', () => {
  it('says what was summarized and how the context shrank', () => {
    expect(
      formatCompactionNotice({ messagesSummarized: 84, tokensBefore: 162_300, tokensAfter: 31_400, strategy: 'llm' }),
    ).toBe('Conversation compacted: 84 messages → summary, 162K → 31K tokens');
  });

  it('names a prune, and writes small and large figures readably', () => {
    expect(
      formatCompactionNotice({ messagesSummarized: 0, tokensBefore: 950, tokensAfter: 420, strategy: 'prune' }),
    ).toBe('Conversation compacted: old tool outputs cleared, 950 → 420 tokens');
    expect(
      formatCompactionNotice({
        messagesSummarized: 3,
        tokensBefore: 1_250_000,
        tokensAfter: 999_600,
        strategy: 'structured',
      }),
    ).toBe('Conversation compacted: 3 messages → summary, 1.3M → 1M tokens');
  });
});
