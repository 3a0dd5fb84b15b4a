/**
 * `CompactionSession.prepare()` per call on long histories, when no compaction
 * is needed, and the one-off cost of counting such a history cold. Runs on the
 * built package (`dist/`): `pnpm --filter @compaction/core bench` after a build
 * (`pnpm bench` builds first). Writes `core-prepare.json` to the benchmarks'
 * results folder; `BENCH_TINY=1` runs it on a tiny history.
 */

import { isTiny, startResult } from '@compaction/bench-kit/bench-env';
import { measure, type Stats, timer } from '@compaction/bench-kit/measure';
import { appendedMessage, syntheticHistory } from '@compaction/bench-kit/synthetic-history';
import {
  type CompactionSession,
  countMessageTokens,
  createCompactionSession,
  createTokenCache,
  gptTokenizerCounter,
  type Message,
} from '../dist/index.js';

const TINY = isTiny();
const SIZES = TINY ? [12, 48] : [2_000, 10_000];
/** Large enough that no size here reaches the trigger: nothing compacts. */
const SETTINGS = { contextWindow: 50_000_000 };
/** Per-call target at 2,000 messages, from the issue. */
const TARGET_MS = 0.1;

const samples = (full: number) => (TINY ? 3 : full);

type SizeResult = {
  messages: number;
  tokens: number;
  tokensPerMessage: number;
  /** Tokens of one appended message (the "new message" of a call). */
  appendedTokens: number;
  rows: {
    countOneMessage: Stats;
    prepareNoNewMessage: Stats;
    prepareOneNewMessage: Stats;
    prepareMessagesOneNew: Stats;
    prepareWithUsage: Stats;
    recordUsage: Stats;
    coldCount: Stats;
    coldPrepare: Stats;
  };
};

const result = startResult('core-prepare', 'pnpm --filter @compaction/core bench');
// The session's default counter.
const counter = gptTokenizerCounter();
const stopInit = timer();
counter.countText('warm up the encoder');
const encoderInitMs = stopInit();

const sizes: SizeResult[] = [];
for (const size of SIZES) {
  const history = syntheticHistory(size);
  const tokens = history.reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
  let next = history.length;
  const appendedTokens = countMessageTokens(appendedMessage(next), counter);
  console.log(`core prepare: ${history.length} messages, ${tokens} tokens`);

  const countOneMessage = await measure(
    'count one new message',
    () => countMessageTokens(appendedMessage(next++), counter),
    {
      samples: samples(1_000),
    },
  );

  // A session that holds the history (persistHistory: true) and has prepared it once.
  const session = createCompactionSession({ sessionId: `bench-${size}`, settings: SETTINGS, counter });
  await session.append(history);
  await session.prepare();
  next = history.length;
  const prepareNoNewMessage = await measure('prepare(), no new message', () => session.prepare(), {
    samples: samples(1_000),
  });
  const prepareOneNewMessage = await measure(
    'append(one message) + prepare()',
    async () => {
      await session.append(appendedMessage(next++));
      return checkNotCompacted(await session.prepare());
    },
    { samples: samples(300) },
  );

  // The usual agent loop: the provider reports usage after every call, so a call far below
  // the trigger is cleared by an upper bound and counts nothing before the model call; the
  // exact count moves to `recordUsage`, after the model answered (timed on its own).
  const loopSession = createCompactionSession({ sessionId: `bench-loop-${size}`, settings: SETTINGS, counter });
  await loopSession.append(history);
  await loopSession.recordUsage({ inputTokens: (await loopSession.prepare()).tokens });
  let reported = (await loopSession.stats()).contextTokens;
  const prepareWithUsage = await measure(
    'append(one message) + prepare(), usage reported',
    async () => {
      await loopSession.append(appendedMessage(next++));
      return checkNotCompacted(await loopSession.prepare());
    },
    {
      samples: samples(300),
      afterEach: async () => {
        reported += 258;
        await loopSession.recordUsage({ inputTokens: reported });
      },
    },
  );
  const recordUsage = await measure(
    'recordUsage() after a call',
    async () => {
      reported += 258;
      await loopSession.recordUsage({ inputTokens: reported });
    },
    {
      samples: samples(300),
      beforeEach: async () => {
        await loopSession.append(appendedMessage(next++));
        checkNotCompacted(await loopSession.prepare());
      },
    },
  );

  // The adapters' way: the framework re-sends its whole history, `prepare({ messages })` syncs it.
  const adapterSession = createCompactionSession({
    sessionId: `bench-adapter-${size}`,
    settings: SETTINGS,
    counter,
    persistHistory: false,
  });
  let sent: Message[] = history.slice();
  await adapterSession.prepare({ messages: sent });
  const prepareMessagesOneNew = await measure(
    'prepare({ messages }) with one new message',
    async () => checkNotCompacted(await adapterSession.prepare({ messages: sent })),
    {
      samples: samples(300),
      beforeEach: () => {
        sent = sent.concat(appendedMessage(next++));
      },
    },
  );

  const coldCount = await measure(
    'count the whole history cold',
    () => {
      const cache = createTokenCache(counter);
      let total = 0;
      for (const message of history) total += cache.count(message);
      return total;
    },
    { samples: samples(size > 5_000 ? 3 : 5), warmup: TINY ? 1 : 1 },
  );
  let coldSession: CompactionSession | undefined;
  const coldPrepare = await measure(
    'first prepare() of a new session over the history',
    async () => checkNotCompacted(await coldSession!.prepare()),
    {
      samples: samples(size > 5_000 ? 3 : 5),
      warmup: 1,
      beforeEach: async () => {
        coldSession = createCompactionSession({ sessionId: 'cold', settings: SETTINGS, counter });
        await coldSession.append(history);
      },
    },
  );

  sizes.push({
    messages: history.length,
    tokens,
    tokensPerMessage: Math.round(tokens / history.length),
    appendedTokens,
    rows: {
      countOneMessage,
      prepareNoNewMessage,
      prepareOneNewMessage,
      prepareMessagesOneNew,
      prepareWithUsage,
      recordUsage,
      coldCount,
      coldPrepare,
    },
  });
}

function checkNotCompacted<T extends { compaction?: unknown }>(prepared: T): T {
  if (prepared.compaction) throw new Error('the benchmark compacted: raise SETTINGS.contextWindow');
  return prepared;
}

const path = result.finish({ targetMs: TARGET_MS, encoderInitMs, counter: counter.name, sizes });
console.log(`wrote ${path}`);
