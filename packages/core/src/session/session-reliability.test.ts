import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, recordingSummarizer, words } from '../../test/builders.js';
import { faultyStore } from '../../test/faulty-store.js';
import { InvalidUsageError } from '../errors/invalid-usage-error.js';
import type { Message } from '../messages/types.js';
import { fileStore } from '../store/file-store.js';
import { memoryStore } from '../store/memory-store.js';
import { HISTORY_SUMMARY_HEADINGS } from '../summarize/index.js';
import { llmSummarizer } from '../summarize/llm/llm-summarizer.js';
import type { Summarizer } from '../summarize/types.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { FAILURE_BREAKER_THRESHOLD } from './auto-compaction-policy.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionEvent } from './types.js';

const counter = heuristicCounter();
const small = { contextWindow: 8_000, keepRecentTokens: 1_500, reserveTokens: 1_000 };
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'session-reliability-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function chat(count: number, chars = 500): Message[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? 'assistant' : 'user',
    parts: [{ type: 'text', text: 'w '.repeat(chars / 2) }],
  }));
}

const ids = (messages: readonly Message[]) => messages.map((message) => message.id);

describe('a failed store write leaves memory unchanged (r02)', () => {
  it('append: the store refuses, the session throws its error and holds nothing the store does not', async () => {
    const inner = memoryStore();
    let failAppends = false;
    const store = faultyStore(inner, (operation) => failAppends && operation === 'appendHistory');
    const session = createCompactionSession({ sessionId: 's', store, counter });
    await session.append(chat(4));
    failAppends = true;
    const more = chat(7).slice(4);
    await expect(session.append(more)).rejects.toThrow(/ENOSPC/);
    expect(ids(await session.history())).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(ids((await session.prepare()).messages)).toEqual(['m0', 'm1', 'm2', 'm3']);
    failAppends = false;
    await session.append(more); // the agent carries on
    const restarted = createCompactionSession({ sessionId: 's', store: inner, counter });
    expect(ids(await restarted.history())).toEqual(ids(await session.history()));
  });

  it('a circular tool output in a file store: append throws, and a restart finds what memory holds', async () => {
    const dir = tempDir();
    const session = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter });
    const output: Record<string, unknown> = { ok: true };
    output.self = output;
    const c = conversation();
    await expect(
      session.append([
        c.user('run it'),
        {
          id: 'c1',
          role: 'assistant',
          parts: [{ type: 'tool-call', toolCallId: 'k', toolName: 'run', input: {} }],
        },
        {
          id: 'r1',
          role: 'tool',
          parts: [{ type: 'tool-result', toolCallId: 'k', toolName: 'run', output }],
        },
      ]),
    ).rejects.toThrow();
    expect(await session.history()).toEqual([]);
    await session.append(c.user('next'));
    const restarted = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter });
    expect(ids(await restarted.history())).toEqual(ids(await session.history()));
  });
});

describe('recordUsage validates its input at the boundary (r05)', () => {
  it('Infinity, "5000", NaN and negatives throw InvalidUsageError and record nothing; later sessions read the store', async () => {
    const dir = tempDir();
    const session = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter });
    await session.append(chat(12, 4));
    await session.prepare();
    for (const inputTokens of [Number.POSITIVE_INFINITY, '5000', Number.NaN, -1] as unknown[]) {
      const error = await session.recordUsage({ inputTokens } as never).catch((caught: unknown) => caught);
      expect(InvalidUsageError.isInstance(error)).toBe(true);
      expect((error as InvalidUsageError).field).toBe('inputTokens');
    }
    await expect(session.prepare()).resolves.toBeDefined();
    const later = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter });
    await expect(later.prepare()).resolves.toBeDefined();
  });

  it('property: any usage value is either a finite count >= 0 that is recorded, or a typed error that changes nothing', async () => {
    const valueArbitrary = fc.oneof(
      fc.nat({ max: 50_000 }),
      fc.double({ noDefaultInfinity: false, noNaN: false }),
      fc.string(),
      fc.constantFrom(null, true, {}, [], Number.NEGATIVE_INFINITY, Number.MAX_VALUE),
    );
    await fc.assert(
      fc.asyncProperty(valueArbitrary, async (value) => {
        const store = memoryStore();
        const session = createCompactionSession({ sessionId: 's', store, counter });
        await session.append(chat(4, 4));
        await session.prepare();
        const valid = typeof value === 'number' && Number.isFinite(value) && value >= 0;
        const outcome = await session.recordUsage({ inputTokens: value } as never).then(
          () => 'ok',
          (error: unknown) => error,
        );
        const stored = await store.loadRecord('s');
        if (valid) {
          expect(outcome).toBe('ok');
          if (value > 0) expect(stored?.usage?.inputTokens).toBe(value);
        } else {
          expect(InvalidUsageError.isInstance(outcome)).toBe(true);
          expect(stored?.usage).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('a store failure after the model answered never fails the call (r10)', () => {
  it('recordUsage reports store:error, keeps memory = store, and saves the usage on the next call', async () => {
    const inner = memoryStore();
    let fail = true;
    const store = faultyStore(inner, (operation) => fail && operation === 'saveRecord');
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({ sessionId: 's', store, counter, onEvent: (e) => events.push(e) });
    await session.append(chat(4, 40));
    await session.prepare();
    await expect(session.recordUsage({ inputTokens: 1_234 })).resolves.toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['store:error']);
    expect((await inner.loadRecord('s'))?.usage).toBeUndefined();
    fail = false;
    await session.prepare();
    expect((await inner.loadRecord('s'))?.usage?.inputTokens).toBe(1_234);
  });
});

describe('a bad stored record is reported once, set aside, and the session goes on (r11)', () => {
  it('a corrupt state file: prepare works, one store:error, and after the file is deleted too', async () => {
    const dir = tempDir();
    const store = fileStore(dir);
    const setup = createCompactionSession({ sessionId: 's', store, counter });
    await setup.append(chat(4, 8));
    await setup.prepare();
    await setup.recordUsage({ inputTokens: 50 });
    const recordFile = join(dir, 's.state.json');
    writeFileSync(recordFile, '{"state": {');
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({ sessionId: 's', store, counter, onEvent: (e) => events.push(e) });
    expect(ids((await session.prepare()).messages)).toEqual(['m0', 'm1', 'm2', 'm3']);
    await session.prepare();
    expect(events.filter((e) => e.type === 'store:error')).toHaveLength(1);
    unlinkSync(recordFile);
    await expect(session.prepare()).resolves.toBeDefined();
    await expect(createCompactionSession({ sessionId: 's', store, counter }).prepare()).resolves.toBeDefined();
  });

  it('the record set aside is replaced by the next save: a compaction after it persists', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 's.state.json'), '{"state": {');
    const session = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter, settings: small });
    await session.append(chat(40, 1_000));
    expect((await session.prepare()).compaction).toBeDefined();
    const restarted = createCompactionSession({ sessionId: 's', store: fileStore(dir), counter, settings: small });
    expect((await restarted.state())?.version).toBe(1);
  });

  it('a load that failed (unreadable store) is tried again on the next call instead of poisoning the session', async () => {
    let failures = 1;
    const store = faultyStore(memoryStore(), (operation) => operation === 'loadHistory' && failures-- > 0);
    const session = createCompactionSession({ sessionId: 's', store, counter });
    await expect(session.prepare()).rejects.toThrow(/ENOSPC/);
    await expect(session.prepare()).resolves.toBeDefined();
  });
});

describe('after an overflow the provider reported, recovery proceeds whatever the estimate says (r14)', () => {
  it('a usage report that left out cached input does not block recovery', async () => {
    const session = createCompactionSession({ sessionId: 's', counter });
    await session.append(chat(40, 400));
    await session.prepare();
    await session.recordUsage({ inputTokens: 500 });
    const overflow = Object.assign(new Error('prompt is too long: 210000 tokens > 200000 maximum'), { status: 400 });
    expect(await session.recoverFromOverflow(overflow)).toBe(true);
  });
});

describe('compaction events always pair (r23)', () => {
  it('the state cannot be saved: start, then error; prepare returns the uncompacted context; memory = store', async () => {
    const inner = memoryStore();
    const store = faultyStore(inner, (operation) => operation === 'saveRecord');
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({
      sessionId: 's',
      store,
      counter,
      settings: small,
      onEvent: (e) => events.push(e),
    });
    await session.append(chat(40, 1_000));
    const prepared = await session.prepare();
    expect(prepared.messages).toHaveLength(40);
    expect(events.length).toBeGreaterThan(0);
    const types = events.map((e) => e.type).filter((type) => type.startsWith('compaction:'));
    expect(types[0]).toBe('compaction:start');
    for (const [index, type] of types.entries()) {
      if (type === 'compaction:start') expect(['compaction:end', 'compaction:error']).toContain(types[index + 1]);
    }
    expect(await session.state()).toBeUndefined();
    expect((await inner.loadRecord('s'))?.state).toBeUndefined();
  });

  it('an abort during the summary: start, then error, then the abort reaches the caller', async () => {
    const controller = new AbortController();
    const summarizer: Summarizer = {
      name: 'slow',
      summarize: (request) =>
        new Promise((_, reject) => {
          request.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          controller.abort();
        }),
    };
    const events: CompactionEvent[] = [];
    const session = createCompactionSession({
      sessionId: 's',
      counter,
      settings: small,
      summarizer,
      onEvent: (e) => events.push(e),
    });
    await session.append(chat(40, 1_000));
    await expect(session.prepare({ signal: controller.signal })).rejects.toThrow(/aborted/);
    expect(events.map((e) => e.type)).toEqual(['compaction:start', 'compaction:error']);
  });
});

describe('clear() during a compaction (r24)', () => {
  it('the pending prepare resolves with the new conversation and context() works', async () => {
    const summary = HISTORY_SUMMARY_HEADINGS.map((heading) => `## ${heading}\n- x`).join('\n\n');
    const session = createCompactionSession({
      sessionId: 's',
      counter,
      settings: small,
      summarizer: llmSummarizer({
        generate: async () => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { text: summary, finishReason: 'stop' };
        },
      }),
    });
    await session.append(chat(40, 1_000));
    const pending = session.prepare();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await session.clear();
    const fresh: Message = { id: 'fresh', role: 'user', parts: [{ type: 'text', text: 'new conversation' }] };
    await session.append(fresh);
    expect(ids((await pending).messages)).toEqual(['fresh']);
    expect(ids(await session.context())).toEqual(['fresh']);
    expect(await session.state()).toBeUndefined();
  });
});

describe('the failure breaker', () => {
  it('a system prompt alone over the trigger does not compact every turn; it pauses and says so', async () => {
    const events: CompactionEvent[] = [];
    const summarizer = recordingSummarizer();
    const session = createCompactionSession({
      sessionId: 's',
      counter,
      summarizer,
      settings: { ...small, minMessages: 2 },
      onEvent: (e) => events.push(e),
    });
    const c = conversation();
    await session.append({ ...c.system(words(7_200)), metadata: { pinned: true } });
    for (let turn = 0; turn < 12; turn += 1) {
      await session.append([c.user(`question ${turn}`), c.assistant(`answer ${turn}`)]);
      await session.prepare();
    }
    const failedRuns = events
      .flatMap((e) => (e.type === 'compaction:error' ? [e.message] : []))
      .filter((message) => /could not bring the context under the trigger/.test(message));
    expect(failedRuns).toHaveLength(FAILURE_BREAKER_THRESHOLD);
    expect(failedRuns.at(-1)).toMatch(/paused/);
    // Meaningful growth (a kept range's worth) closes the breaker: compaction is tried again.
    const startsBefore = events.filter((e) => e.type === 'compaction:start').length;
    await session.append([c.user(words(1_000)), c.assistant(words(800))]);
    await session.prepare();
    expect(events.filter((e) => e.type === 'compaction:start').length).toBeGreaterThan(startsBefore);
  });
});

describe('a branch switch never passes through a stored state where a crash loses history', () => {
  it('whichever store write fails during the switch, a restart finds the old or the new branch whole', async () => {
    const old = chat(12, 40);
    const branch = [
      ...old.slice(0, 6),
      ...chat(20, 40)
        .slice(14)
        .map((m) => ({ ...m, id: `b${m.id}` })),
    ];
    for (let failAt = 0; failAt < 12; failAt += 1) {
      const inner = memoryStore();
      const setup = createCompactionSession({ sessionId: 's', store: inner, counter });
      await setup.append(old);
      let writes = 0;
      const store = faultyStore(inner, (operation) => {
        if (operation === 'loadHistory' || operation === 'loadRecord') return false;
        writes += 1;
        return writes - 1 === failAt; // the crash: this write and everything after never happen
      });
      const session = createCompactionSession({ sessionId: 's', store, counter });
      await session.history();
      await session.prepare({ messages: branch }).catch(() => undefined);
      store.setFault((operation) => operation !== 'loadHistory' && operation !== 'loadRecord');
      const restarted = createCompactionSession({ sessionId: 's', store: inner, counter });
      const found = ids(await restarted.history());
      expect([ids(old), ids(branch)]).toContainEqual(found);
    }
  });
});
