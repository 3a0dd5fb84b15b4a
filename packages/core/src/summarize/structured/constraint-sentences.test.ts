import { describe, expect, it } from 'vitest';
import { constraintSentences } from './constraint-sentences.js';

describe('constraintSentences', () => {
  it("keeps the user's constraints and preferences, in order", () => {
    expect(
      constraintSentences(
        'Add a --dry-run flag. Do not touch the public API of deploy().\nKeep the output short; tests must pass without network.\n```\nnever = 1\n```\nThanks!',
      ),
    ).toEqual([
      'Do not touch the public API of deploy().',
      'Keep the output short;',
      'tests must pass without network.',
    ]);
    expect(constraintSentences('Implement spotter-gqc')).toEqual([]);
  });
});
