import { describe, expect, it } from 'vitest';
import { conversation, recordingSummarizer, words } from '../../test/builders.js';
import { buildContext } from '../compaction/build-context.js';
import { compact } from '../compaction/compact.js';
import { findCutPoint } from '../compaction/find-cut-point.js';
import { shouldCompact } from '../compaction/should-compact.js';
import type { Message } from '../messages/types.js';
import { resolveSettings } from '../settings/compaction-settings.js';
import { memoryStore } from '../store/memory-store.js';
import { serializeConversation } from '../summarize/index.js';
import type { Summarizer } from '../summarize/types.js';
import { countMessageTokens } from '../tokens/count-message-tokens.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';

const counter = heuristicCounter();
const countTokens = (message: Message) => countMessageTokens(message, counter);
const settings = {
  contextWindow: 4_000,
  reserveTokens: 500,
  keepRecentTokens: 600,
  trigger: 0.5,
  minMessages: 4,
  pruneToolOutputs: false,
};

function turns(count: number): Message[] {
  const c = conversation();
  return Array.from({ length: count }, (_, turn) => [
    c.user(`request ${turn} ${words(40)}`),
    ...c.toolStep([{ name: 'read', input: { path: `src/f${turn}.ts` }, output: words(200) }]),
    c.assistant(`done ${turn} ${words(40)}`),
  ]).flat();
}

/** Seed 000 (`crates/coop-gateway/tests/compaction.rs`): its twelve cases, by name. */
describe('seed 000 cases', () => {
  const resolved = resolveSettings(settings, 4_000);

  it('small_session_no_compaction', () => {
    expect(shouldCompact(500, resolved, 4)).toBe(false);
  });

  it('large_session_triggers_compaction', () => {
    expect(shouldCompact(2_500, resolved, 40)).toBe(true);
  });

  it('build_context_without_compaction_returns_all', () => {
    const history = turns(2);
    expect(buildContext(history, undefined)).toEqual(history);
  });

  it('build_context_with_compaction_prepends_summary', async () => {
    const history = turns(8);
    const result = await compact(history, { settings, counter, summarizer: recordingSummarizer() });
    const context = buildContext(history, result!.state);
    expect(context[0]!.metadata?.compaction).toMatchObject({ type: 'summary' });
    expect(context[1]!.role).toBe('assistant'); // the acknowledgement
  });

  it('build_context_preserves_recent_messages', async () => {
    const history = turns(8);
    const result = await compact(history, { settings, counter, summarizer: recordingSummarizer() });
    const firstKept = history.findIndex((m) => m.id === result!.state.firstKeptMessageId);
    expect(buildContext(history, result!.state).slice(-(history.length - firstKept))).toEqual(history.slice(firstKept));
  });

  it('cut_point_never_splits_tool_result', () => {
    const history = turns(8);
    for (let keep = 50; keep < 2_500; keep += 50) {
      const cut = findCutPoint(history, { countTokens, keepRecentTokens: keep, splitTurnMinMessages: 1 });
      if (cut) expect(history[cut.firstKeptIndex]!.role).not.toBe('tool');
    }
  });

  it('cut_point_respects_keep_recent_tokens', () => {
    const history = turns(8);
    const cut = findCutPoint(history, { countTokens, keepRecentTokens: 600, splitTurnMinMessages: 5 })!;
    const kept = history.slice(cut.firstKeptIndex).reduce((sum, m) => sum + countTokens(m), 0);
    expect(kept).toBeGreaterThanOrEqual(600);
    expect(kept).toBeLessThan(600 + 400); // at most about one turn more than the budget
  });

  it('serialize_for_summary_produces_text_format', () => {
    const c = conversation();
    const text = serializeConversation([
      c.user('What files are in src/?'),
      ...c.toolStep([{ name: 'bash', input: { command: 'ls src/' }, output: 'main.rs lib.rs' }]),
    ]);
    expect(text).toContain('[User]: What files are in src/?');
    expect(text).toContain('[Tool call]: bash(command="ls src/")');
    expect(text).toContain('[Tool result]: main.rs lib.rs');
  });

  it('clear_session_clears_compaction', async () => {
    const session = createCompactionSession({ sessionId: 's', settings, counter, store: memoryStore() });
    await session.append(turns(10));
    await session.prepare();
    expect(await session.state()).toBeDefined();
    await session.clear();
    expect(await session.state()).toBeUndefined();
  });

  it('compact_calls_provider_complete_fast', async () => {
    const summarizer = recordingSummarizer();
    const result = await compact(turns(8), { settings, counter, summarizer });
    expect(summarizer.requests).toHaveLength(1);
    expect(result!.state.summary).toContain('[history]');
  });

  it('compact_iterative_includes_previous_summary', async () => {
    const history = turns(12);
    const summarizer = recordingSummarizer();
    const first = await compact(history.slice(0, 24), { settings, counter, summarizer });
    await compact(history, { previous: first!.state, settings, counter, summarizer });
    expect(summarizer.requests[1]!.previousSummary).toBe(first!.state.summary);
    const start = history.findIndex((m) => m.id === first!.state.firstKeptMessageId);
    expect(summarizer.requests[1]!.messages[0]!.id).toBe(history[start]!.id);
  });

  it('compaction_failure_falls_back_to_full_context', async () => {
    // We go further than the seed: the structured summary stands in, so the context still shrinks.
    const failing: Summarizer = { name: 'llm', summarize: () => Promise.reject(new Error('boom')) };
    const session = createCompactionSession({ sessionId: 's', settings, counter, summarizer: failing });
    await session.append(turns(12));
    const prepared = await session.prepare();
    expect(prepared.compaction?.strategy).toBe('structured');
    expect(prepared.tokens).toBeLessThan(2_000);
  });
});

/** Seed 003's edge cases. */
describe('seed 003 edge cases', () => {
  it('very short conversations (< minMessages) are never auto-compacted', async () => {
    const summarizer = recordingSummarizer();
    const session = createCompactionSession({
      sessionId: 's',
      settings: { ...settings, minMessages: 10, trigger: 0.02 }, // 80 tokens: 50 would now be rejected as below the reserve
      counter,
      summarizer,
    });
    await session.append(turns(2)); // 8 messages, over the trigger
    expect((await session.prepare()).compaction).toBeUndefined();
  });

  it('summary generation failure: the turn goes on', async () => {
    const broken: Summarizer = { name: 'llm', summarize: () => Promise.reject(new Error('down')) };
    const session = createCompactionSession({ sessionId: 's', settings, counter, summarizer: broken });
    await session.append(turns(12));
    await expect(session.prepare()).resolves.toMatchObject({ messages: expect.any(Array) });
  });

  it('tool calls in the summarized range are summarized by name, not carried verbatim', async () => {
    const summarizer = recordingSummarizer();
    await compact(turns(8), { settings, counter, summarizer });
    const summarized = summarizer.requests[0]!.messages;
    expect(summarized.some((m) => m.parts.some((p) => p.type === 'tool-call'))).toBe(true);
  });

  it('stacking: the second compaction moves the start forward and covers everything before it', async () => {
    const session = createCompactionSession({ sessionId: 's', settings, counter });
    const history = turns(30);
    const versions: { version: number; range: number }[] = [];
    for (const message of history) {
      await session.append(message);
      await session.prepare();
      const state = await session.state();
      if (state && versions.at(-1)?.version !== state.version)
        versions.push({ version: state.version, range: state.summarizedRange.messageCount });
    }
    expect(versions.length).toBeGreaterThan(1);
    for (let index = 1; index < versions.length; index += 1)
      expect(versions[index]!.range).toBeGreaterThan(versions[index - 1]!.range);
  });

  it('session resumption: a reloaded session continues from the compacted context', async () => {
    const store = memoryStore();
    const first = createCompactionSession({ sessionId: 'r', settings, counter, store });
    await first.append(turns(12));
    await first.prepare();
    const resumed = createCompactionSession({ sessionId: 'r', settings, counter, store });
    const c = conversation();
    await resumed.append({ ...c.user('next question'), id: 'next' });
    const context = await resumed.context();
    expect(context[0]!.metadata?.compaction).toMatchObject({ type: 'summary' });
    expect(context.at(-1)!.id).toBe('next');
  });
});
