import { describe, expect, it } from 'vitest';
import { InvalidMessageError } from '../errors/invalid-message-error.js';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { HistorySource } from './types.js';

const message = (index: number): Message => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text: `message ${index}: ${'word '.repeat(30)}` }],
});

/** A source over `list` that records what the session reads; `since` as an adapter would say it. */
function source(list: readonly Message[], since?: { source: HistorySource; unchanged: number }) {
  const reads: number[] = [];
  const made: HistorySource & { reads: number[] } = {
    reads,
    length: list.length,
    messages(from) {
      reads.push(from);
      return list.slice(from);
    },
    ...(since ? { since } : {}),
  };
  return made;
}

function session(store = memoryStore()) {
  return createCompactionSession({
    sessionId: 's',
    store,
    persistHistory: false,
    tokenCache: createTokenCache(heuristicCounter(), { keyByContent: true }),
    settings: { contextWindow: 1_000_000 },
  });
}

/** A session over 20 messages whose usage was reported, then held counted by the second call. */
async function countedSession() {
  const conversation = session();
  const list = Array.from({ length: 20 }, (_, index) => message(index));
  const first = source(list);
  await conversation.prepare({ history: first });
  await conversation.recordUsage({ inputTokens: 2_000 });
  const grown = [...list, message(20)];
  const second = source(grown, { source: first, unchanged: 20 });
  const prepared = await conversation.prepare({ history: second });
  await conversation.recordUsage({ inputTokens: 2_100 });
  return { conversation, list: grown, last: second, prepared };
}

describe('prepare({ history })', () => {
  it('reads only the new messages of a history its usage record stands for, and sends it as it is', async () => {
    const { conversation, list, last, prepared } = await countedSession();
    expect(prepared.asIs).toBe(true);
    expect(last.reads).toEqual([20]);
    const third = source([...list, message(21)], { source: last, unchanged: 21 });
    const next = await conversation.prepare({ history: third });
    expect(next.asIs).toBe(true);
    expect(third.reads).toEqual([21]);
    expect(next.messages.map((m) => m.id)).toEqual([...list, message(21)].map((m) => m.id));
  });

  it('loads the messages back from the last source for whatever reads them', async () => {
    const { conversation, list } = await countedSession();
    expect((await conversation.history()).map((m) => m.id)).toEqual(list.map((m) => m.id));
    expect((await conversation.stats()).historyMessages).toBe(list.length);
    expect((await conversation.context()).length).toBe(list.length);
  });

  it('compares every id when the source says nothing about the last one, and branches on another id', async () => {
    const { conversation, list } = await countedSession();
    const edited = [...list];
    edited[3] = { ...message(3), id: 'm3-edited' };
    const untold = source([...edited, message(21)]);
    const prepared = await conversation.prepare({ history: untold });
    expect(prepared.asIs).toBeUndefined();
    expect((await conversation.history()).map((m) => m.id)).toContain('m3-edited');
  });

  it('does not take `since` from a source it was not last brought in line with', async () => {
    const { conversation, list } = await countedSession();
    const stranger = source(list);
    const removed = [...list.slice(0, 5), ...list.slice(6), message(21)];
    const lying = source(removed, { source: stranger, unchanged: list.length });
    const prepared = await conversation.prepare({ history: lying });
    expect(lying.reads[0]).toBe(0); // every id compared
    expect(prepared.asIs).toBeUndefined();
    expect((await conversation.history()).map((m) => m.id)).toEqual(removed.map((m) => m.id));
  });

  it('refuses a new message whose id the counted history holds, changing nothing', async () => {
    const { conversation, list, last } = await countedSession();
    const duplicate = source([...list, { ...message(2) }], { source: last, unchanged: list.length });
    await expect(conversation.prepare({ history: duplicate })).rejects.toThrow(InvalidMessageError);
    expect((await conversation.history()).length).toBe(list.length);
  });

  it('refuses a history source that is not one, saying what it lacks', async () => {
    for (const bad of [
      null,
      {},
      { length: 2 },
      { length: -1, messages: () => [] },
      { length: 1.5, messages: () => [] },
    ]) {
      await expect(session().prepare({ history: bad as never })).rejects.toThrow(InvalidSettingsError);
    }
    await expect(session().prepare({ history: { length: 1 } as never })).rejects.toThrow(/messages\(from\)/);
  });

  it('takes messages or a history source, not both', async () => {
    await expect(session().prepare({ messages: [message(0)], history: source([message(0)]) })).rejects.toThrow(
      InvalidSettingsError,
    );
  });
});
