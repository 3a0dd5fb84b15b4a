import { describe, expect, it } from 'vitest';
import { claudeCodeFixture } from '../test/fixtures.js';
import { parseClaudeCodeSession } from './parse-claude-code-session.js';
import { summarizeImport } from './summarize-import.js';

describe('summarizeImport', () => {
  it.each([
    [
      'short.jsonl',
      {
        messages: 5,
        calls: 1,
        toolCalls: 2,
        maxContextTokens: 25353,
        totalInputTokens: 25353,
        totalOutputTokens: 13,
        compactions: 0,
      },
    ],
    [
      'tool_heavy.jsonl',
      {
        messages: 17,
        calls: 4,
        toolCalls: 6,
        maxContextTokens: 27666,
        totalInputTokens: 105981,
        totalOutputTokens: 212,
        compactions: 0,
      },
    ],
    [
      'subagent.jsonl',
      {
        messages: 32,
        calls: 12,
        toolCalls: 16,
        maxContextTokens: 43861,
        totalInputTokens: 454704,
        totalOutputTokens: 1586,
        compactions: 0,
      },
    ],
    [
      '258c7280-ae70-4798-800f-63464d01a85d.jsonl',
      {
        messages: 346,
        calls: 152,
        toolCalls: 186,
        maxContextTokens: 166759,
        totalInputTokens: 15121271,
        totalOutputTokens: 38899,
        compactions: 1,
      },
    ],
    [
      'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
      {
        messages: 466,
        calls: 217,
        toolCalls: 242,
        maxContextTokens: 141787,
        totalInputTokens: 16790991,
        totalOutputTokens: 49467,
        compactions: 1,
      },
    ],
  ])('counts %s', (name, expected) => {
    expect(summarizeImport(parseClaudeCodeSession(claudeCodeFixture(name)))).toEqual(expected);
  });

  it('counts an empty session as zeros', () => {
    expect(summarizeImport({ messages: [], calls: [], compactions: [], warnings: [] })).toEqual({
      messages: 0,
      calls: 0,
      toolCalls: 0,
      maxContextTokens: 0,
      totalInputTokens: 0,
      totalOutputTokens: 0,
      compactions: 0,
    });
  });
});
