import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import { describe, expect, it } from 'vitest';
import { claudeCodeFixture } from '../../test/fixtures.js';
import type { Message } from '../messages/types.js';
import { COMPACT_STRUCTURED_BUDGET, structuredSummarizer } from '../summarize/index.js';
import { tiktokenCounter } from '../tokens/tiktoken-counter.js';
import { compact } from './compact.js';
import type { CompactionState } from './compaction-state.js';

const FILE_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit']);

function filePaths(messages: readonly Message[]): string[] {
  const paths = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || !FILE_TOOLS.has(part.toolName)) continue;
      const path = (part.input as { file_path?: unknown }).file_path;
      if (typeof path === 'string') paths.add(path);
    }
  }
  return [...paths];
}

describe('stacked compactions on a recorded session', () => {
  it.each([4_000, COMPACT_STRUCTURED_BUDGET])(
    'keep every file path of cycle one in the third summary (structured, %i-token budget)',
    async (maxTokens) => {
      const { messages } = parseClaudeCodeSession(claudeCodeFixture('258c7280-ae70-4798-800f-63464d01a85d.jsonl'));
      const counter = tiktokenCounter();
      const settings = { contextWindow: 200_000, keepRecentTokens: 8_000, pruneToolOutputs: false };
      const summarizer = structuredSummarizer({ maxTokens });
      let previous: CompactionState | undefined;
      const summarizedByCycle: Message[][] = [];
      for (const end of [100, 200, 300]) {
        const result = await compact(messages.slice(0, end), { previous, summarizer, settings, counter });
        expect(result, `cycle ending at ${end}`).toBeDefined();
        const start = previous ? messages.findIndex((m) => m.id === previous!.firstKeptMessageId) : 0;
        const firstKept = messages.findIndex((m) => m.id === result!.state.firstKeptMessageId);
        summarizedByCycle.push(messages.slice(start, firstKept));
        expect(result!.strategy).toBe('structured');
        previous = result!.state;
      }
      const cycleOnePaths = filePaths(summarizedByCycle[0]!);
      expect(cycleOnePaths.length).toBeGreaterThan(5);
      const third = previous!.summary;
      expect(cycleOnePaths.filter((path) => !third.includes(path))).toEqual([]);
      // …and the structured file operations carried in the state hold them too.
      const tracked = new Set([...previous!.fileOps.read, ...previous!.fileOps.modified]);
      expect(cycleOnePaths.filter((path) => !tracked.has(path))).toEqual([]);
    },
    60_000,
  );
});
