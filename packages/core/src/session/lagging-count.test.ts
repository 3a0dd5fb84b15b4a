import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contextTokens } from '../compaction/compact.js';
import type { Message } from '../messages/types.js';
import { fileStore } from '../store/file-store.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { HistorySource } from './types.js';

/** A real heuristic counter that records how many texts it was given (one a message here). */
function countingCounter(): TokenCounter & { texts: number } {
  const heuristic = heuristicCounter();
  const counting = {
    name: 'counting',
    texts: 0,
    countText(text: string) {
      counting.texts += 1;
      return heuristic.countText(text);
    },
  };
  return counting;
}

const message = (index: number): Message => ({
  id: `m${index}`,
  role: index % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text: `message ${index}: ${'lorem ipsum dolor '.repeat(40)}` }],
});

/** Our count of the first `length` messages from scratch (no compaction state here). */
const recount = (messages: readonly Message[]) =>
  contextTokens(messages, undefined, createTokenCache(heuristicCounter()).count, heuristicCounter());

/** The provider: our count plus 900 tokens of tool definitions. */
const reported = (messages: readonly Message[]) => recount(messages) + 900;

const WINDOW = 100_000;
const settings = { contextWindow: WINDOW, reserveTokens: 10_000, trigger: 90_000 };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function make(store: SessionStore, counter: TokenCounter, persistHistory?: boolean) {
  return createCompactionSession({
    sessionId: 's',
    store,
    settings,
    tokenCache: createTokenCache(counter),
    ...(persistHistory !== undefined ? { persistHistory } : {}),
  });
}

describe('a count left behind by calls far below the trigger', () => {
  it('comes back after a restart from a fileStore without recounting the counted prefix, and catches up to a full recount', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lagging-count-'));
    dirs.push(dir);
    const counter = countingCounter();
    const session = make(fileStore(dir), counter);
    const history: Message[] = [];
    for (let index = 0; index < 30; index += 1) {
      history.push(message(index));
      const before = counter.texts;
      await session.prepare({ messages: history });
      await session.recordUsage({ inputTokens: reported(history) });
      // The first call counts its context; the ones after, far below the trigger, count nothing.
      expect(counter.texts - before).toBe(index === 0 ? 1 : 0);
    }
    const stored = await fileStore(dir).loadRecord('s');
    expect(stored?.usage).toMatchObject({ historyLength: 30, countedLength: 1, reportsSinceCounted: 29 });
    expect(stored?.usage?.countedInputTokens).toBe(reported(history.slice(0, 1)));

    // A new process: its first call far below counts nothing either.
    const restartedCounter = countingCounter();
    const restarted = make(fileStore(dir), restartedCounter);
    history.push(message(30));
    await restarted.prepare({ messages: history });
    await restarted.recordUsage({ inputTokens: reported(history) });
    expect(restartedCounter.texts).toBe(0);

    // The provider's figure jumps by 80,000 (tools were added), still far below at this call's bound.
    history.push(message(31));
    await restarted.prepare({ messages: history });
    await restarted.recordUsage({ inputTokens: reported(history) + 80_000 });
    expect(restartedCounter.texts).toBe(0);
    // The next call is near the trigger and reads our count: it catches up over the messages after
    // the stored count only, once, to a full recount.
    history.push(message(32));
    const prepared = await restarted.prepare({ messages: history });
    expect(prepared.compaction).toBeUndefined();
    expect(restartedCounter.texts).toBe(history.length - 1);
    await restarted.recordUsage({ inputTokens: reported(history) + 80_000 });
    const settled = await fileStore(dir).loadRecord('s');
    expect(settled?.usage?.countedLength).toBeUndefined();
    expect(settled?.usage).toMatchObject({ historyLength: 33, countedTokens: recount(history) });
  });

  it('held counted, not loaded, through a history source: counts nothing far below, then loads and catches up', async () => {
    const counter = countingCounter();
    const store = memoryStore();
    const session = make(store, counter, false);
    const history: Message[] = [];
    let last: HistorySource | undefined;
    const reads: number[] = [];
    const call = async (extra = 0) => {
      const list = history.slice();
      const made: HistorySource = {
        length: list.length,
        messages(from) {
          reads.push(from);
          return list.slice(from);
        },
        ...(last ? { since: { source: last, unchanged: list.length - 1 } } : {}),
      };
      last = made;
      const prepared = await session.prepare({ history: made });
      await session.recordUsage({ inputTokens: reported(list) + extra });
      return prepared;
    };
    for (let index = 0; index < 40; index += 1) {
      history.push(message(index));
      const before = counter.texts;
      const prepared = await call();
      if (index > 1) {
        expect(prepared.asIs).toBe(true); // decided over the counted history
        expect(counter.texts - before).toBe(0);
      }
    }
    expect(reads.filter((from) => from === 0)).toHaveLength(1); // loaded once, at the first call
    // The provider's figure jumps near the trigger: the next call needs our count, loads the messages
    // from the source and counts only what the record's count lagged behind.
    history.push(message(40));
    await call(80_000);
    const countedBefore = counter.texts;
    history.push(message(41));
    const prepared = await call(80_000);
    expect(prepared.asIs).toBeUndefined();
    expect(counter.texts - countedBefore).toBe(history.length - 1);
    expect(await session.stats()).toMatchObject({ historyMessages: 42, compactions: 0 });
    const record = await store.loadRecord('s');
    expect(record?.usage?.countedLength).toBeUndefined();
    expect(record?.usage).toMatchObject({ historyLength: 42, countedTokens: recount(history) });
  });
});
