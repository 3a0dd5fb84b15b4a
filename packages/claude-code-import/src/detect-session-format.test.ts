import { describe, expect, it } from 'vitest';
import { claudeCodeFixture, claudeCodeFixtureNames } from '../test/fixtures.js';
import { detectSessionFormat } from './detect-session-format.js';
import { stringifySessionJson } from './parse-session-json.js';

describe('detectSessionFormat', () => {
  it.each(claudeCodeFixtureNames())('recognizes %s as a Claude Code transcript', (name) => {
    expect(detectSessionFormat(claudeCodeFixture(name))).toBe('claude-code');
  });

  it('recognizes the project session file, compact or pretty-printed', () => {
    expect(detectSessionFormat(stringifySessionJson([]))).toBe('compaction-json');
    expect(detectSessionFormat('{"format":"compaction-session","version":1,"messages":[]}')).toBe('compaction-json');
  });

  it('recognizes a transcript whose first lines are not JSON', () => {
    expect(detectSessionFormat('garbage\n\n{"type":"summary","summary":"Title"}\n')).toBe('claude-code');
  });

  it.each([
    ['empty text', ''],
    ['plain text', 'hello\nworld'],
    ['other JSON', '{"messages": []}'],
    ['a JSON array', '[{"type": "user"}]'],
    ['JSON lines of another kind', '{"role":"user","content":"hi"}\n{"role":"assistant","content":"yo"}'],
  ])('returns undefined for %s', (_case, text) => {
    expect(detectSessionFormat(text)).toBeUndefined();
  });
});
