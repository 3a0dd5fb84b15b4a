import type { CompactionEvent, CompactionResult } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { withThousands } from '../cli/format-tokens.js';
import { describeCompaction } from './describe-compaction.js';

const end = (
  tokensBefore: number,
  tokensAfter: number,
  strategy: 'structured' | 'prune' = 'structured',
): CompactionEvent =>
  ({
    type: 'compaction:end',
    sessionId: 's',
    trigger: 'auto',
    messagesBefore: 20,
    messagesAfter: 4,
    tokensBefore,
    tokensAfter,
    messagesSummarized: 16,
    strategy,
    fallbacks: [],
    durationMs: 3,
    result: { state: { prunedToolCallIds: ['a', 'b'] } } as unknown as CompactionResult,
  }) as CompactionEvent;
const error = (message: string): CompactionEvent => ({
  type: 'compaction:error',
  sessionId: 's',
  trigger: 'auto',
  message,
  tokensBefore: 1530,
  tokensAfter: 1440,
});

describe('describeCompaction', () => {
  it('says one thing for a compaction the loop guard then called not enough: the figures of the result', () => {
    const lines = describeCompaction(
      [
        end(1484, 1440),
        error(
          'compaction could not bring the context under the trigger (1530 → 1440 tokens, trigger 1500); not retrying until the conversation changes',
        ),
      ],
      1500,
    );
    expect(lines).toEqual(['Conversation compacted: 16 messages → summary, 1,484 → 1,440 tokens (structured, auto)']);
  });

  it('says when the context is still above the trigger, and when the next attempt comes', () => {
    expect(describeCompaction([end(1638, 1596)], 1500)).toEqual([
      'Conversation compacted: 16 messages → summary, 1,638 → 1,596 tokens (structured, auto) — still above the trigger of 1,500 tokens; the next message tries again',
    ]);
    expect(
      describeCompaction(
        [
          end(2638, 2596),
          error('… 3 times in a row; automatic compaction is paused until the context grows by 4000 tokens'),
        ],
        1500,
      ),
    ).toEqual([
      'Conversation compacted: 16 messages → summary, 2,638 → 2,596 tokens (structured, auto) — still above the trigger of 1,500 tokens; automatic compaction is paused until the context grows by 4,000 tokens',
    ]);
  });

  it('names the summarizers that failed before the one that wrote the summary', () => {
    const event = end(52000, 9000) as Extract<CompactionEvent, { type: 'compaction:end' }>;
    const fellBack = {
      ...event,
      fallbacks: [
        { strategy: 'llm', error: 'cannot reach http://127.0.0.1:9/v1/chat/completions: connect ECONNREFUSED\nstack' },
      ],
    };
    expect(describeCompaction([fellBack], 40000)).toEqual([
      'Conversation compacted: 16 messages → summary, 52,000 → 9,000 tokens (structured, auto); llm failed (cannot reach http://127.0.0.1:9/v1/chat/completions: connect ECONNREFUSED)',
    ]);
  });

  it('spans from the first attempt to the last result, and names cleared tool outputs', () => {
    expect(describeCompaction([end(52000, 30000, 'prune'), end(30000, 21000, 'prune')], 40000)).toEqual([
      'Conversation compacted: 2 old tool outputs cleared, 52,000 → 21,000 tokens (prune, auto)',
    ]);
  });

  it('reports a failure alone as a failure, in the same number format, and nothing when nothing ran', () => {
    expect(
      describeCompaction(
        [error('compaction did not shrink the context (54797 → 54887 tokens); state kept as it was')],
        40000,
      ),
    ).toEqual([
      'Compaction failed: compaction did not shrink the context (54,797 → 54,887 tokens); state kept as it was',
    ]);
    expect(describeCompaction([], 40000)).toEqual([]);
    expect(withThousands('v2 at 999 and 1000 and 1234567')).toBe('v2 at 999 and 1,000 and 1,234,567');
    expect(withThousands('(54797 → 54887 tokens, trigger 40000)')).toBe('(54,797 → 54,887 tokens, trigger 40,000)');
    expect(withThousands('cannot reach http://127.0.0.1:11434/v1 (port 11434), src/a1234.ts, v1.2025.3, #4567')).toBe(
      'cannot reach http://127.0.0.1:11434/v1 (port 11,434), src/a1234.ts, v1.2025.3, #4567',
    );
  });
});
