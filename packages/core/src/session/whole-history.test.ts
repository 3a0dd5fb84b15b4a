import { describe, expect, it } from 'vitest';
import { conversation, longConversation, recordingSummarizer } from '../../test/builders.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';

const counter = heuristicCounter();
const ids = (messages: readonly Message[]) => messages.map((message) => message.id);

function session(contextWindow: number) {
  return createCompactionSession({
    sessionId: 'whole',
    store: memoryStore(),
    persistHistory: false,
    counter,
    summarizer: recordingSummarizer(),
    settings: { contextWindow, reserveTokens: 500, keepRecentTokens: 600, trigger: 0.5, minMessages: 4 },
  });
}

describe('prepare(): wholeHistory (the context is the history, message for message)', () => {
  it('is the history length far below the trigger, with `messages` the history copied when read', async () => {
    const compaction = session(1_000_000);
    const history = longConversation(4);
    const prepared = await compaction.prepare({ messages: history });
    expect(prepared.wholeHistory).toBe(history.length);
    // Copied when read, and still this call's context after the history grew.
    const grown: Message[] = [
      ...history,
      { id: 'one-more', role: 'user', parts: [{ type: 'text', text: 'one more' }] },
    ];
    const next = await compaction.prepare({ messages: grown });
    expect(next.wholeHistory).toBe(grown.length);
    const last: Message = { id: 'last', role: 'assistant', parts: [{ type: 'text', text: 'ok' }] };
    const third = await compaction.prepare({ messages: [...grown, last] });
    expect(third.wholeHistory).toBe(grown.length + 1);
    expect(ids(prepared.messages)).toEqual(ids(history));
    for (const [index, message] of prepared.messages.entries()) expect(message).toBe(history[index]);
    expect(ids(next.messages)).toEqual(ids(grown));
    expect(ids(third.messages)).toEqual(ids([...grown, last]));
    // The caller may replace what it read.
    next.messages = [];
    expect(next.messages).toEqual([]);
  });

  it('is not set when the context is not the history: a compaction state, a repaired tool pair', async () => {
    const compacting = session(4_000);
    let compacted = false;
    for (const message of longConversation(30)) {
      await compacting.append(message);
      const prepared = await compacting.prepare();
      if ((await compacting.state()) !== undefined) {
        compacted = true;
        expect(prepared.wholeHistory).toBeUndefined();
      }
    }
    expect(compacted).toBe(true);

    const repaired = session(1_000_000);
    const c = conversation();
    const [call] = c.toolStep([{ name: 'read', input: {}, output: 'x' }]);
    const unanswered = [c.user('go'), call!, c.user('and then?')];
    const prepared = await repaired.prepare({ messages: unanswered });
    expect(prepared.wholeHistory).toBeUndefined();
    expect(prepared.messages.length).not.toBe(unanswered.length); // a synthetic result was added
  });
});
