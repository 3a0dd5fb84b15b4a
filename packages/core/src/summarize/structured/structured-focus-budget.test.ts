import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longConversation } from '../../../test/builders.js';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { structuredSummarizer } from './structured-summarizer.js';

const counter = heuristicCounter();

async function summarize(turns: number, maxTokens: number, instructions: string): Promise<string> {
  return structuredSummarizer({ maxTokens }).summarize({
    kind: 'history',
    messages: longConversation(turns),
    instructions,
    fileOps: { read: [], modified: [] },
    replacedTokens: 1_000_000,
    counter,
  });
}

describe('a manual compaction focus at small budgets', () => {
  it('keeps the focus when the summary must be cut, ahead of headings that say a section is empty', async () => {
    const text = await summarize(12, 150, 'focus on the parser bug in src/parse.ts');
    expect(text).toContain('### Focus: focus on the parser bug in src/parse.ts');
    expect(text).not.toContain('(nothing recorded)');
    expect(counter.countText(text)).toBeLessThanOrEqual(150);
  });

  it('for any budget and conversation length, the summary fits and names the focus', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 80, max: 600 }),
        fc.constantFrom('keep the parser decisions', 'focus on src/parse.ts and the failing test', 'the date helpers'),
        async (turns, maxTokens, focus) => {
          const text = await summarize(turns, maxTokens, focus);
          expect(counter.countText(text)).toBeLessThanOrEqual(maxTokens);
          expect(text).toContain(`### Focus: ${focus}`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
