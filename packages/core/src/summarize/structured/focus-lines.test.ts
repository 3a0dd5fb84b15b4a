import { describe, expect, it } from 'vitest';
import { conversation } from '../../../test/builders.js';
import { heuristicCounter } from '../../tokens/heuristic-counter.js';
import { structuredSummarizer } from './structured-summarizer.js';

describe('structured summary with a focus', () => {
  it('leads Critical Context with the focus and the lines that mention it', async () => {
    const c = conversation();
    const messages = [
      c.user('Fix the tokenizer and then the parser bug in src/parser.ts'),
      c.assistant('The parser fails on nested brackets.'),
      c.assistant('Unrelated: updated the changelog.'),
    ];
    const summary = await structuredSummarizer().summarize({
      kind: 'history',
      messages,
      fileOps: { read: [], modified: [] },
      instructions: 'focus on the parser bug',
      replacedTokens: 10_000,
      counter: heuristicCounter(),
    });
    const critical = summary.slice(summary.indexOf('## Critical Context'));
    expect(critical).toMatch(/^## Critical Context\n### Focus: focus on the parser bug\n/);
    const focus = critical.slice(0, critical.indexOf('\n\n'));
    expect(focus).toContain('The parser fails on nested brackets.');
    expect(focus).not.toContain('changelog');
  });
});
