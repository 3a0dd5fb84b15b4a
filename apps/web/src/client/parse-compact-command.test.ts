import { describe, expect, it } from 'vitest';
import { parseCompactCommand } from './parse-compact-command.js';

describe('parseCompactCommand', () => {
  it('reads /compact with and without a focus', () => {
    expect(parseCompactCommand('/compact')).toEqual({ focus: undefined });
    expect(parseCompactCommand('  /compact   ')).toEqual({ focus: undefined });
    expect(parseCompactCommand('/compact focus on the failing tests')).toEqual({ focus: 'focus on the failing tests' });
    expect(parseCompactCommand('/compact keep\nthe API notes ')).toEqual({ focus: 'keep\nthe API notes' });
  });

  it('leaves everything else to the model', () => {
    for (const text of ['/compacted', 'please /compact', 'compact', '/compactfoo bar', '/help', '']) {
      expect(parseCompactCommand(text)).toBeUndefined();
    }
  });
});
