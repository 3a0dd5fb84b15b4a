import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faultyStore } from '../../test/faulty-store.js';
import type { Message } from '../messages/types.js';
import { memoryStore } from '../store/memory-store.js';
import type { SessionStore } from '../store/session-store.js';
import { structuredSummarizer } from '../summarize/index.js';
import type { Summarizer } from '../summarize/types.js';
import { createTokenCache } from '../tokens/create-token-cache.js';
import { heuristicCounter } from '../tokens/heuristic-counter.js';
import { comparable } from './__fixtures__/comparable-record.js';
import { createCompactionSession } from './create-compaction-session.js';
import type { CompactionSession, HistorySource } from './types.js';

/** One public operation of a session, as generated. */
type Op =
  | { kind: 'call'; shape: 'user' | 'assistant' | 'pair' | 'two'; size: number }
  | { kind: 'edit'; edit: 'new-id' | 'remove' | 'insert'; at: number }
  | { kind: 'usage' | 'append' | 'compact' | 'recover' | 'request' | 'history' | 'context' | 'stats' | 'clear' };

/** How long the caller waits before it starts the next operation (3: until all it started settled). */
type Gap = 0 | 1 | 2 | 3;

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      shape: fc.constantFrom('user', 'assistant', 'pair', 'two'),
      size: fc.integer({ min: 1, max: 120 }),
    }),
  },
  { weight: 8, arbitrary: fc.constant({ kind: 'usage' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      edit: fc.constantFrom('new-id', 'remove', 'insert'),
      at: fc.nat(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('append', 'compact', 'recover', 'request', 'history', 'context', 'stats', 'clear'),
    }),
  },
);

const text = (id: string, size: number) => `${id} ${'lorem ipsum dolor '.repeat(size)}`;
const ids = (messages: readonly Message[]) => messages.map((message) => message.id);
const overflow = () => new Error('prompt is too long: 2100000 tokens > 2000000 maximum');

/** A memory store whose every operation first waits as `delays` says, in turn: not, a microtask, a timer of 0 or 1 ms. */
function delayingStore(inner: SessionStore, delays: readonly number[]): SessionStore {
  let turn = 0;
  const wait = async () => {
    const delay = delays.length > 0 ? delays[turn++ % delays.length]! : 0;
    if (delay === 1) await Promise.resolve();
    else if (delay >= 2) await new Promise((resolve) => setTimeout(resolve, delay - 2));
  };
  return {
    async loadHistory(sessionId, options) {
      await wait();
      return inner.loadHistory(sessionId, options);
    },
    async appendHistory(sessionId, messages) {
      await wait();
      return inner.appendHistory(sessionId, messages);
    },
    async loadRecord(sessionId) {
      await wait();
      return inner.loadRecord(sessionId);
    },
    async saveRecord(sessionId, record, options) {
      await wait();
      return inner.saveRecord(sessionId, record, options);
    },
    async clear(sessionId) {
      await wait();
      return inner.clear(sessionId);
    },
  };
}

/** The structured summarizer, telling `watch` when each of its calls starts and ends. */
function watchedSummarizer(watch: { start(): void; end(): void }): Summarizer {
  const inner = structuredSummarizer();
  const around = async <T>(work: () => Promise<T>) => {
    watch.start();
    try {
      return await work();
    } finally {
      watch.end();
    }
  };
  return {
    name: inner.name,
    summarize: (request) => around(() => inner.summarize(request)),
    ...(inner.draft ? { draft: (request) => around(() => inner.draft!(request)) } : {}),
  };
}

/** How both runs are made: the store's failures (call indexes) and whether the session writes its history. */
type RunOptions = { failing: ReadonlySet<number>; persistHistory: boolean };

function makeSession(store: SessionStore, window: number, summarizer: Summarizer, persistHistory: boolean) {
  return createCompactionSession({
    sessionId: 'conversation',
    store,
    persistHistory,
    summarizer,
    tokenCache: createTokenCache(heuristicCounter(), { keyByContent: true }),
    settings: { contextWindow: window, keepRecentTokens: Math.floor(window / 4) },
  });
}

/** One concrete step both runs take: the operation and, for a call, the caller's list then. */
type Step = { op: Op; list: readonly Message[]; append?: Message };

/** The caller's lists, call by call, and what it appends: the same for both runs. */
function plan(ops: readonly Op[]): Step[] {
  let list: Message[] = [];
  let next = 0;
  const fresh = (role: Message['role'], size: number): Message => {
    next += 1;
    return { id: `m${next}`, role, parts: [{ type: 'text', text: text(`m${next}`, size) }] };
  };
  const steps: Step[] = [];
  for (const op of ops) {
    if (op.kind === 'call') {
      list = [...list];
      if (op.shape === 'user' || op.shape === 'assistant') list.push(fresh(op.shape, op.size));
      else if (op.shape === 'two') list.push(fresh('user', op.size), fresh('assistant', 3));
      else {
        next += 1;
        const call = `call${next}`;
        list.push({
          id: `m${next}`,
          role: 'assistant',
          parts: [{ type: 'tool-call', toolCallId: call, toolName: 'read', input: { path: `f${next}` } }],
        });
        next += 1;
        list.push({
          id: `m${next}`,
          role: 'tool',
          parts: [
            { type: 'tool-result', toolCallId: call, toolName: 'read', output: text(call, op.size), isError: false },
          ],
        });
      }
      steps.push({ op, list });
    } else if (op.kind === 'edit') {
      if (list.length === 0) continue;
      const at = op.at % list.length;
      list = [...list];
      if (op.edit === 'new-id') list[at] = fresh(list[at]!.role === 'tool' ? 'user' : list[at]!.role, 5);
      else if (op.edit === 'remove') list.splice(at, 1);
      else list.splice(at, 0, fresh('user', 5));
      // A removed or replaced tool message can leave the other half of its pair: that is a repair, still the same both ways.
    } else if (op.kind === 'append') {
      const message = fresh('user', 4);
      list = [...list, message];
      steps.push({ op, list, append: message });
    } else if (op.kind === 'clear') {
      list = [];
      steps.push({ op, list });
    } else steps.push({ op, list });
  }
  return steps;
}

/** What an operation gave: a value to compare, or the error's name. */
type Outcome = { value?: unknown; error?: string };

/** The usage a provider reports for a call over `list`: the same figure in both runs. */
const reported = (list: readonly Message[]) =>
  Math.round(300 + list.reduce((sum, message) => sum + JSON.stringify(message.parts).length, 0) / 3);

async function apply(
  session: CompactionSession,
  step: Step,
  history: (list: readonly Message[]) => { history: HistorySource } | { messages: readonly Message[] },
  lastCall: { list: readonly Message[]; asIs: number },
): Promise<unknown> {
  const { op } = step;
  switch (op.kind) {
    case 'call': {
      lastCall.list = step.list;
      const prepared = await session.prepare(history(step.list));
      if (prepared.asIs) lastCall.asIs += 1;
      return { ids: ids(prepared.messages), tokens: prepared.tokens, compacted: Boolean(prepared.compaction) };
    }
    case 'usage':
      return session.recordUsage({ inputTokens: reported(lastCall.list) });
    case 'append':
      return session.append(step.append!);
    case 'compact':
      return (await session.compact({ keepRecentTokens: 600 }))?.messagesSummarized;
    case 'recover':
      return session.recoverFromOverflow(overflow());
    case 'request':
      session.requestCompaction({ instructions: 'focus' });
      return undefined;
    case 'history':
      return ids(await session.history());
    case 'context':
      return ids(await session.context());
    case 'stats':
      return session.stats();
    case 'clear':
      return session.clear();
    default:
      return undefined;
  }
}

const outcome = (run: Promise<unknown>): Promise<Outcome> =>
  run.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error instanceof Error ? error.name : String(error) }),
  );

/** The operations one after another, each awaited, through `prepare({ messages })`: the order the session serializes them in. */
async function sequential(steps: readonly Step[], window: number, { failing, persistHistory }: RunOptions) {
  const store = memoryStore();
  const faulty = faultyStore(store, (_operation, index) => failing.has(index));
  const session = makeSession(faulty, window, structuredSummarizer(), persistHistory);
  const lastCall = { list: [] as readonly Message[], asIs: 0 };
  const outcomes: Outcome[] = [];
  for (const step of steps)
    outcomes.push(await outcome(apply(session, step, (list) => ({ messages: list }), lastCall)));
  faulty.setFault(() => false); // what the test reads afterwards does not fail
  return { session, store, outcomes };
}

/**
 * The same operations through `prepare({ history })` (a source chained by `since`, held
 * counted, not loaded, when it can be), each started without awaiting the ones before it
 * unless the gap says so, over a store that delays at random. `passed` is set when an
 * append, clear or read overlapped a running summarizer (the one documented exception to
 * call order: it may run during that compaction).
 */
async function interleaved(
  steps: readonly Step[],
  gaps: readonly Gap[],
  delays: readonly number[],
  window: number,
  { failing, persistHistory }: RunOptions,
) {
  const store = memoryStore();
  const faulty = faultyStore(delayingStore(store, delays), (_operation, index) => failing.has(index));
  let summarizing = 0;
  let passers = 0;
  let passed = false;
  const summarizer = watchedSummarizer({
    start() {
      summarizing += 1;
      if (passers > 0) passed = true;
    },
    end() {
      summarizing -= 1;
    },
  });
  const session = makeSession(faulty, window, summarizer, persistHistory);
  const lastCall = { list: [] as readonly Message[], asIs: 0 };
  let previous: HistorySource | undefined;
  let previousList: readonly Message[] = [];
  const asSource = (list: readonly Message[]) => {
    let unchanged = 0;
    while (unchanged < Math.min(previousList.length, list.length) && previousList[unchanged] === list[unchanged])
      unchanged += 1;
    const made: HistorySource = {
      length: list.length,
      messages: (from) => list.slice(from),
      ...(previous ? { since: { source: previous, unchanged } } : {}),
    };
    previous = made;
    previousList = list;
    return { history: made };
  };
  const started: Promise<Outcome>[] = [];
  for (const [index, step] of steps.entries()) {
    const gap = gaps[index % Math.max(1, gaps.length)] ?? 0;
    if (gap === 1) await Promise.resolve();
    else if (gap === 2) await new Promise((resolve) => setTimeout(resolve, 0));
    else if (gap === 3) await Promise.all(started);
    const passes = ['append', 'clear', 'history', 'context', 'stats'].includes(step.op.kind);
    if (step.op.kind === 'clear') {
      previous = undefined;
      previousList = [];
    }
    if (passes) {
      passers += 1;
      if (summarizing > 0) passed = true;
    }
    const run = apply(session, step, asSource, lastCall);
    started.push(
      outcome(run).finally(() => {
        if (passes) passers -= 1;
      }),
    );
  }
  const outcomes = await Promise.all(started);
  faulty.setFault(() => false); // what the test reads afterwards does not fail
  return { session, store, outcomes, passed, asIs: lastCall.asIs };
}

/** Every failure a session may answer with is a typed error of ours, never a TypeError. */
function expectTyped(outcomes: readonly Outcome[]): void {
  for (const { error } of outcomes) if (error !== undefined) expect(error).not.toMatch(/^(TypeError|RangeError)$/);
}

/** Runs generated operations both ways, with the store failing at the same calls in both, and compares them. */
async function compareRuns(failures: boolean, persistHistory: boolean, numRuns: number): Promise<void> {
  let exact = 0;
  let runs = 0;
  let asIs = 0;
  let failed = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(opArbitrary, { minLength: 4, maxLength: 60 }),
      fc.array(fc.constantFrom<Gap>(0, 0, 0, 1, 2, 3), { minLength: 1, maxLength: 40 }),
      fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }),
      fc.constantFrom(4_000, 8_000, 20_000, 200_000),
      failures ? fc.uniqueArray(fc.nat({ max: 30 }), { minLength: 1, maxLength: 6 }) : fc.constant([]),
      async (ops, gaps, delays, window, failingCalls) => {
        const steps = plan(ops);
        const failing = new Set(failingCalls);
        const expected = await sequential(steps, window, { failing, persistHistory });
        const actual = await interleaved(steps, gaps, delays, window, { failing, persistHistory });
        runs += 1;
        asIs += actual.asIs;
        if (actual.outcomes.some((outcome) => outcome.error !== undefined)) failed += 1;
        expectTyped(expected.outcomes);
        expectTyped(actual.outcomes);
        // Memory and store agree, whatever overlapped or failed.
        const stored = await actual.store.loadRecord('conversation');
        expect(await actual.session.state()).toEqual(stored?.state);
        if (persistHistory) {
          // A restart finds the history memory holds (a branch switch a failure interrupted is finished by the journal).
          const restarted = makeSession(actual.store, window, structuredSummarizer(), true);
          expect(ids(await restarted.history())).toEqual(ids(await actual.session.history()));
        }
        if (actual.passed) {
          // An append, clear or read overlapped a summarizer: still no message lost. (With failures,
          // the store calls came in another order, so another call failed: nothing more to compare.)
          if (failing.size === 0) {
            expect(ids(await actual.session.history())).toEqual(ids(await expected.session.history()));
          }
          return;
        }
        exact += 1;
        expect(actual.outcomes).toEqual(expected.outcomes);
        expect(ids(await actual.session.history())).toEqual(ids(await expected.session.history()));
        expect(ids(await actual.session.context())).toEqual(ids(await expected.session.context()));
        expect(comparable(stored)).toEqual(comparable(await expected.store.loadRecord('conversation')));
      },
    ),
    { numRuns },
  );
  // Most runs are compared operation by operation (an append overlapping a summarizer is rare).
  expect(exact).toBeGreaterThan(runs / 2);
  // The counted path is taken often (a call after a usage report, far below the trigger).
  if (!persistHistory) expect(asIs).toBeGreaterThan(runs / 2);
  if (failures) expect(failed).toBeGreaterThan(runs / 10);
}

describe('overlapping operations (property)', () => {
  it('give the history, context and record the same operations give run one after another', async () => {
    await compareRuns(false, false, 250);
  }, 60_000);

  it('do so with the store failing at the same calls both ways', async () => {
    // 300 runs: a session that does not write its history makes few store calls, so about one run
    // in five reaches a failing call; over 150 runs, `failed > runs / 10` fell short for about one
    // seed in 400 (26–33 of 150 in five runs, 2.8 standard deviations above 15). Over 300: 3.9.
    await compareRuns(true, false, 300);
  }, 60_000);

  it('do so for a session that writes its history to the store (never held counted), failing or not', async () => {
    await compareRuns(false, true, 80);
    await compareRuns(true, true, 80);
  }, 60_000);
});
