import { describe, expect, it } from 'vitest';
import { words } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionEvent } from './types.js';

const counter = heuristicCounter();

function chat(count: number, size: number, prefix = 'm'): Message[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i}`,
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    parts: [{ type: 'text' as const, text: words(size) }],
  }));
}

// The call cycle through the session that wires it (its parts need the whole session to run).
describe('the call cycle', () => {
  it('a usage report for a call a concurrent compaction outdated is dropped, not applied to the new context', async () => {
    const store = memoryStore();
    const session = createCompactionSession({
      sessionId: 's',
      store,
      counter,
      settings: { contextWindow: 100_000, keepRecentTokens: 2_000 },
    });
    await session.append(chat(30, 400));
    await session.prepare();
    await session.recordUsage({ inputTokens: 12_500 });
    await session.append(chat(2, 10, 'late'));
    await session.prepare(); // the fast path: its count is taken lazily
    await session.compact(); // a compaction lands before the report
    await expect(session.recordUsage({ inputTokens: 13_000 })).resolves.toBeUndefined();
    expect((await store.loadRecord('s'))?.usage?.inputTokens).toBe(12_500);
  });

  it('a usage write the store refused is saved again on the next prepare, once', async () => {
    let fail = true;
    const inner = memoryStore();
    const store = faultyStore(inner, (operation) => fail && operation === 'saveRecord');
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({ sessionId: 's', store, counter, onEvent: (e) => events.push(e) });
    await session.append(chat(4, 20));
    await session.prepare();
    await session.recordUsage({ inputTokens: 321 });
    await session.prepare(); // still failing: reported again, still pending
    expect(events.filter((e) => e.type === 'store:error')).toHaveLength(2);
    fail = false;
    await session.prepare();
    expect((await inner.loadRecord('s'))?.usage?.inputTokens).toBe(321);
    const saves = store.calls.filter((op) => op === 'saveRecord').length;
    await session.prepare();
    expect(store.calls.filter((op) => op === 'saveRecord').length).toBe(saves);
  });

  it('an overflow the provider reported forces the next prepare to compact, whatever the estimate', async () => {
    const session = createCompactionSession({
      sessionId: 's',
      counter,
      settings: { contextWindow: 20_000, keepRecentTokens: 2_000 },
    });
    await session.append(chat(30, 200));
    await session.prepare();
    await session.recordUsage({ inputTokens: 20_000 });
    const prepared = await session.prepare();
    expect(prepared.compaction).toBeDefined();
  });
  it('a context over the trigger that minMessages keeps from compacting is reported once per history length', async () => {
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({
      sessionId: 's',
      counter,
      settings: { contextWindow: 8_000, reserveTokens: 1_000, keepRecentTokens: 1_000, minMessages: 4 },
      onEvent: (event) => events.push(event),
    });
    await session.append(chat(1, 9_000)); // one message over the whole window
    expect((await session.prepare()).compaction).toBeUndefined();
    await session.prepare();
    const errors = events.filter((event) => event.type === 'compaction:error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      trigger: 'auto',
      message: expect.stringMatching(/1 message, fewer than minMessages \(4\)/),
    });
    await session.append(chat(1, 10, 'next'));
    await session.prepare();
    expect(events.filter((event) => event.type === 'compaction:error')).toHaveLength(2);
  });
});
