import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import { describe, expect, it } from 'vitest';
import { claudeCodeFixture } from '../../test/fixtures.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import { countMessageTokens } from '../tokens/count-message-tokens.js';
import { tiktokenCounter } from '../tokens/tiktoken-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionEvent } from './types.js';

// 258c… peaks at 167K (over the default trigger of 160K); ae4a… peaks at 142K, so it also
// runs with a lower trigger to compact several times.
const CASES = [
  ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', { contextWindow: 200_000 }],
  ['ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', { contextWindow: 200_000, trigger: 0.4, keepRecentTokens: 10_000 }],
  ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', { contextWindow: 200_000, trigger: 0.3, keepRecentTokens: 8_000 }],
] as const;

describe.each(CASES)('replaying the recorded Claude Code session %s with %o', (name, settings) => {
  it('keeps the context under the trigger, shrinks at every compaction, loses no message', async () => {
    const imported = parseClaudeCodeSession(claudeCodeFixture(name));
    // Claude Code's own compaction summary is not part of the conversation we replay.
    const messages = imported.messages.filter(
      (message) => !(message.metadata?.claudeCode as { compactSummary?: boolean })?.compactSummary,
    );
    const events: CompactionEvent[] = [];
    const store = memoryStore();
    const session = createCompactionSession({
      sessionId: name,
      store,
      counter: tiktokenCounter(),
      settings,
      onEvent: (event) => events.push(event),
    });
    const stats = await session.stats();
    const counter = tiktokenCounter();
    const callsById = new Map(imported.calls.map((call) => [call.messageId, call]));
    // The provider also reads Claude Code's system prompt and tool definitions, which the
    // recording does not hold: take their size from the first call's recorded usage, and
    // report usage as the provider would, from the prompt it actually received.
    const counts = new Map<string, number>();
    const count = (m: Message) => {
      const key = `${m.id}:${JSON.stringify(m.parts).length}`;
      const known = counts.get(key);
      if (known !== undefined) return known;
      const tokens = countMessageTokens(m, counter);
      counts.set(key, tokens);
      return tokens;
    };
    let overhead: number | undefined;
    let maxContext = 0;
    let calls = 0;
    for (const message of messages) {
      // Every recorded model call is prepared just before its reply is appended.
      const call = callsById.get(message.id);
      if (call) {
        const prepared = await session.prepare();
        const counted = prepared.messages.reduce((sum, m) => sum + count(m), 0);
        overhead ??= call.contextTokens - counted;
        const reported = counted + overhead;
        expect(reported).toBeLessThanOrEqual(stats.triggerTokens + overhead);
        if (prepared.tokens > stats.triggerTokens)
          console.log(
            JSON.stringify(events.slice(-4).map((e) => ({ ...e, result: undefined }))),
            prepared.tokens,
            counted,
            overhead,
          );
        expect(prepared.tokens).toBeLessThanOrEqual(stats.triggerTokens);
        await session.recordUsage({ inputTokens: reported });
        maxContext = Math.max(maxContext, reported);
        calls += 1;
      }
      await session.append(message);
    }
    const ends = events.filter((event) => event.type === 'compaction:end');
    expect(ends.length).toBeGreaterThan(0);
    for (const end of ends) expect(end.tokensAfter).toBeLessThan(end.tokensBefore);
    expect(events.filter((event) => event.type === 'compaction:error')).toEqual([]);
    // No message lost: the display history is exactly what was appended, and every message
    // from the first kept one on is in the context.
    expect(await session.history()).toEqual(messages);
    const state = await session.state();
    const history = await session.history();
    const firstKept = history.findIndex((message) => message.id === state?.firstKeptMessageId);
    const contextIds = new Set((await session.context()).map((message) => message.id));
    for (const message of history.slice(firstKept)) expect(contextIds.has(message.id)).toBe(true);
    expect(state?.summarizedRange.messageCount).toBe(firstKept);
    expect(calls).toBeGreaterThan(100);
    expect(maxContext).toBeLessThan(Math.max(...imported.calls.map((call) => call.contextTokens)));
  }, 60_000);
});
