import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import { describe, expect, it } from 'vitest';
import { claudeCodeFixture } from '../../test/fixtures.js';
import type { Message } from '../messages/types.js';
import { tiktokenCounter } from '../tokens/tiktoken-counter.js';
import { COMPACT_STRUCTURED_BUDGET, DEFAULT_STRUCTURED_BUDGET } from './build-structured-summary.js';
import { extractFileOperations } from './extract-file-operations.js';
import { genuineRequestText } from './harness-text.js';
import { structuredSummarizer } from './structured-summarizer.js';

/** The two long recorded sessions; each hit Claude Code's own compaction once. */
const LONG_SESSIONS = ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'];
const counter = tiktokenCounter();

/** Paths of Claude Code's Read / Edit / Write calls, read straight from the call inputs. */
function fileToolPaths(messages: readonly Message[]): string[] {
  const paths = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || !['Read', 'Edit', 'Write'].includes(part.toolName)) continue;
      const path = (part.input as { file_path?: unknown }).file_path;
      if (typeof path === 'string') paths.add(path);
    }
  }
  return [...paths];
}

/**
 * Every genuine user request's text, whitespace collapsed: injected `synthetic` text and
 * harness-injected text (`<task-notification>`, "[Request interrupted by user…]") excluded.
 */
function userRequests(messages: readonly Message[]): string[] {
  return messages
    .map((message) => genuineRequestText(message)?.replace(/\s+/g, ' ').trim())
    .filter((text): text is string => text !== undefined && text.length > 0);
}

describe.each(LONG_SESSIONS)('structured summary of the span before compact_boundary in %s', (name) => {
  const session = parseClaudeCodeSession(claudeCodeFixture(name));
  const boundaries = session.compactions;
  const spans = boundaries.map((boundary) => session.messages.slice(0, boundary.messageIndex));

  it('has a compaction boundary with file tool calls and user requests before it', () => {
    expect(boundaries.length).toBeGreaterThan(0);
    for (const span of spans) {
      expect(fileToolPaths(span).length).toBeGreaterThan(10);
      expect(userRequests(span).length).toBeGreaterThan(0);
    }
  });

  it.each([DEFAULT_STRUCTURED_BUDGET, COMPACT_STRUCTURED_BUDGET])(
    'keeps every Read/Edit/Write path and every user request within %i tokens',
    async (maxTokens) => {
      for (const span of spans) {
        const summary = await structuredSummarizer({ maxTokens }).summarize({
          kind: 'history',
          messages: span,
          fileOps: extractFileOperations(span),
          replacedTokens: Number.POSITIVE_INFINITY,
          counter,
        });
        const missingPaths = fileToolPaths(span).filter((path) => !summary.includes(`\n${path}\n`));
        const missingRequests = userRequests(span).filter((text) => !summary.includes(text.slice(0, 60)));
        expect(missingPaths).toEqual([]);
        expect(missingRequests).toEqual([]);
        expect(counter.countText(summary)).toBeLessThanOrEqual(maxTokens);
      }
    },
  );
});
