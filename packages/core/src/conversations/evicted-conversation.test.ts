import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { createCompactionSession } from '../session/create-compaction-session.js';
import type { CompactionSession } from '../session/types.js';
import { memoryStore } from '../store/memory-store.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createConversationCache } from './create-conversation-cache.js';

/** A real heuristic counter that records every text it counts. */
function countingCounter(): TokenCounter & { texts: string[] } {
  const heuristic = heuristicCounter();
  const texts: string[] = [];
  return { name: 'counting', texts, countText: (text) => texts.push(text) && heuristic.countText(text) };
}

const message = (conversation: number, index: number): Message => ({
  id: `c${conversation}-m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text: `conversation ${conversation}, message ${index}: ${'word '.repeat(20)}` }],
});

/**
 * Conversations served round-robin through a cache that holds only a few of
 * them, as a chat server with more conversations than memory does: each call
 * re-sends the history (the framework holds it), adds one message, prepares,
 * and records the provider's usage. Token counts are not cached across
 * sessions here (each session has a cache of its own), so whatever is not
 * recounted comes from the stored record.
 */
async function roundRobin(conversations: number, calls: number, kept: number) {
  const counter = countingCounter();
  const store = memoryStore();
  const histories = Array.from({ length: conversations }, (_, conversation) =>
    Array.from({ length: 20 }, (_, index) => message(conversation, index)),
  );
  const cache = createConversationCache<CompactionSession>({ sizeOf: () => 1, maxBytes: kept });
  let made = 0;
  const countedPerCall: number[] = [];
  for (let call = 0; call < calls; call += 1) {
    const conversation = call % conversations;
    const history = histories[conversation]!;
    history.push(message(conversation, history.length));
    const session = cache.obtain(String(conversation), () => {
      made += 1;
      return createCompactionSession({
        sessionId: String(conversation),
        store,
        persistHistory: false,
        tokenCache: createTokenCache(counter),
        settings: { contextWindow: 1_000_000 },
      });
    });
    const before = counter.texts.length;
    await cache.run(String(conversation), async () => {
      const prepared = await session.prepare({ messages: history });
      await session.recordUsage({ inputTokens: 100 + history.length * 30 });
      expect(prepared.messages.map((item) => item.id)).toEqual(history.map((item) => item.id));
    });
    countedPerCall.push(counter.texts.length - before);
  }
  return { made, countedPerCall };
}

describe('a conversation evicted from the cache', () => {
  it('comes back in a new session that counts nothing its stored count covers, nor, far below the trigger, what came since', async () => {
    const { made, countedPerCall } = await roundRobin(5, 30, 2);
    expect(made).toBe(30); // every call missed: five conversations round-robin, two kept
    // The first call of each conversation counts its whole history; every later one, far below
    // the trigger, counts nothing: its record carries the stored count forward (issue 16, session 8).
    expect(countedPerCall.slice(0, 5)).toEqual([21, 21, 21, 21, 21]);
    expect(countedPerCall.slice(5)).toEqual(Array(25).fill(0));
  });

  it('counts the same as a conversation that stayed in memory, for any number kept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), async (conversations, kept) => {
        const evicting = await roundRobin(conversations, conversations * 3, kept);
        const keeping = await roundRobin(conversations, conversations * 3, conversations);
        expect(evicting.countedPerCall).toEqual(keeping.countedPerCall);
      }),
      { numRuns: 20 },
    );
  });
});
