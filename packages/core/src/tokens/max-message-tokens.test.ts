import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { countMessageTokens } from './count-message-tokens.js';
import { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
import { heuristicCounter } from './heuristic-counter.js';
import { maxMessageTokens } from './max-message-tokens.js';

describe('maxMessageTokens', () => {
  it('is never below the exact count (byte-level BPE and the heuristic)', () => {
    const counters = [gptTokenizerCounter(), heuristicCounter()];
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        (text, output) => {
          const message: Message = {
            id: 'm',
            role: 'assistant',
            parts: [
              { type: 'text', text },
              { type: 'tool-call', toolCallId: 'c', toolName: 'read', input: { path: text } },
              { type: 'tool-result', toolCallId: 'c', toolName: 'read', output },
            ],
          };
          for (const counter of counters)
            expect(maxMessageTokens(message)).toBeGreaterThanOrEqual(countMessageTokens(message, counter));
        },
      ),
      { numRuns: 300 },
    );
  });
});
