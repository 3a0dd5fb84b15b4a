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

  it('gives a summary that stood for earlier messages the count a compaction marker shows', () => {
    const result = { state: { summarizedRange: { messageCount: 13 } } };
    const figures = { tokensBefore: 9_000, tokensAfter: 4_000, strategy: 'structured' };
    expect(formatCompactionNotice({ ...figures, messagesSummarized: 3, result })).toBe(
      'Conversation compacted: 3 more messages → summary (13 in all), 9K → 4K tokens',
    );
    expect(formatCompactionNotice({ ...figures, messagesSummarized: 1, result })).toMatch(/: 1 more message → summary/);
    const first = { state: { summarizedRange: { messageCount: 10 } } };
    expect(formatCompactionNotice({ ...figures, messagesSummarized: 10, result: first })).toBe(
      'Conversation compacted: 10 messages → summary, 9K → 4K tokens',
    );
  });
});
