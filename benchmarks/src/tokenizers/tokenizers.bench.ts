/**
 * Tokenizer throughput, o200k_base in all three: `tiktoken` (WASM, what core
 * counts with), `js-tiktoken` (pure JS) and `gpt-tokenizer` (pure JS), on a
 * 5 MB mixed corpus, on 100K short strings, and per ~250-token message (the
 * per-call case). gpt-tokenizer keeps an LRU cache of merges across calls: it
 * is cleared before each measured pass, and a second row measures it off.
 * Every count is compared afterwards: the tokenizers must agree. Writes
 * `tokenizers.json`; exits 1 on any disagreement.
 *
 *   node src/tokenizers/tokenizers.bench.ts   (from benchmarks/)
 */

import { isTiny, startResult } from '@compaction/bench-kit/bench-env';
import { measure, type Stats, timer } from '@compaction/bench-kit/measure';
import { tiktokenCounter } from '@compaction/core';
import { messageTexts, mixedCorpus, shortStrings } from './corpus.ts';

const TINY = isTiny();
const CORPUS_BYTES = TINY ? 50_000 : 5_000_000;
const SHORT_STRINGS = TINY ? 1_000 : 100_000;
const MESSAGES = TINY ? 50 : 1_000;
const PASSES = TINY ? 1 : 3;

type Tokenizer = {
  id: string;
  label: string;
  package: string;
  count: (text: string) => number;
  /** Called before each measured pass: empties a cache kept across calls, so no pass is warmed by the one before. */
  reset?: () => void;
  /** Called before and after its measurements (a configuration it needs). */
  setUp?: () => void;
  tearDown?: () => void;
};

const result = startResult('tokenizers', 'cd benchmarks && node src/tokenizers/tokenizers.bench.ts');

// Loading: the first import and the encoder's construction, in this order, once per process.
const load: Record<string, number> = {};
let stop = timer();
const { get_encoding } = await import('tiktoken');
const wasm = get_encoding('o200k_base');
wasm.encode_ordinary('warm');
load.tiktoken = stop();
stop = timer();
const { getEncoding } = await import('js-tiktoken');
const pure = getEncoding('o200k_base');
pure.encode('warm', [], []);
load['js-tiktoken'] = stop();
stop = timer();
const gpt = await import('gpt-tokenizer/encoding/o200k_base');
const ordinary = { disallowedSpecial: new Set<string>() };
gpt.countTokens('warm', ordinary);
load['gpt-tokenizer'] = stop();

const gptCount = (text: string) => gpt.countTokens(text, ordinary);
const tokenizers: Tokenizer[] = [
  { id: 'tiktoken', label: 'tiktoken (WASM)', package: 'tiktoken', count: (text) => wasm.encode_ordinary(text).length },
  {
    id: 'js-tiktoken',
    label: 'js-tiktoken',
    package: 'js-tiktoken',
    count: (text) => pure.encode(text, [], []).length,
  },
  {
    id: 'gpt-tokenizer',
    label: 'gpt-tokenizer',
    package: 'gpt-tokenizer',
    count: gptCount,
    reset: gpt.clearMergeCache,
  },
  {
    id: 'gpt-tokenizer-no-cache',
    label: 'gpt-tokenizer, merge cache off',
    package: 'gpt-tokenizer',
    count: gptCount,
    setUp: () => gpt.setMergeCacheSize(0),
    tearDown: () => gpt.setMergeCacheSize(gpt.DEFAULT_MERGE_CACHE_SIZE),
  },
];
const coreCounter = tiktokenCounter();

const corpus = mixedCorpus(CORPUS_BYTES);
const strings = shortStrings(SHORT_STRINGS);
const messages = messageTexts(MESSAGES);

type Row = {
  id: string;
  label: string;
  version: string;
  loadMs: number;
  corpus: Stats & { megabytesPerSecond: number; tokensPerSecond: number };
  shortStrings: Stats & { stringsPerSecond: number; tokensPerSecond: number };
  perMessage: Stats;
};
const versions = (await import('@compaction/bench-kit/bench-env')).packageVersions();
const rows: Row[] = [];
for (const tokenizer of tokenizers) {
  tokenizer.setUp?.();
  // Warm the JIT on other texts, then start from an empty cache.
  for (const text of strings.slice(0, 2_000)) tokenizer.count(text);
  tokenizer.reset?.();
  const countAll = (texts: string[]) => () => {
    let total = 0;
    for (const text of texts) total += tokenizer.count(text);
    return total;
  };
  let next = 0;
  const perMessage = await measure(
    `${tokenizer.id} one message`,
    () => tokenizer.count(messages[next++ % messages.length]!),
    { samples: messages.length, warmup: 0, async: false },
  );
  const passes = { samples: PASSES, warmup: 0, async: false, beforeEach: () => tokenizer.reset?.() };
  const stringStats = await measure(`${tokenizer.id} short strings`, countAll(strings), passes);
  const corpusStats = await measure(`${tokenizer.id} corpus`, countAll(corpus), passes);
  tokenizer.tearDown?.();
  rows.push({
    id: tokenizer.id,
    label: tokenizer.label,
    version: versions[tokenizer.package] ?? 'unknown',
    loadMs: load[tokenizer.package]!,
    corpus: {
      ...corpusStats,
      megabytesPerSecond: CORPUS_BYTES / 1e6 / (corpusStats.median / 1000),
      tokensPerSecond: 0,
    },
    shortStrings: {
      ...stringStats,
      stringsPerSecond: strings.length / (stringStats.median / 1000),
      tokensPerSecond: 0,
    },
    perMessage,
  });
  console.log(
    `${tokenizer.label.padEnd(30)} corpus ${corpusStats.median.toFixed(0)} ms · short strings ${stringStats.median.toFixed(0)} ms · one message median ${perMessage.median.toFixed(4)} ms p90 ${perMessage.p90.toFixed(4)} ms`,
  );
}

// Core's own counter: tiktoken plus the slicing of long runs (see tiktokenCounter).
let nextMessage = 0;
const coreCounterPerMessage = await measure(
  'core tiktokenCounter one message',
  () => coreCounter.countText(messages[nextMessage++ % messages.length]!),
  { samples: messages.length, warmup: 0, async: false },
);

// Agreement, after the timings (so it warms no cache): every text counted by all three.
type Mismatch = { input: string; index: number; counts: Record<string, number>; sample: string };
const mismatches: Mismatch[] = [];
let mismatchCount = 0;
function agree(input: string, texts: string[]): number {
  let total = 0;
  for (const [index, text] of texts.entries()) {
    const counts = Object.fromEntries(agreeing.map((tokenizer) => [tokenizer.id, tokenizer.count(text)]));
    const values = Object.values(counts);
    if (values.some((value) => value !== values[0])) {
      mismatchCount += 1;
      if (mismatches.length < 20) mismatches.push({ input, index, counts, sample: text.slice(0, 120) });
    }
    total += values[0]!;
  }
  return total;
}
const agreeing = tokenizers.filter((tokenizer) => tokenizer.id !== 'gpt-tokenizer-no-cache');
const corpusTokens = agree('corpus', corpus);
const stringTokens = agree('short strings', strings);
const messageTokens = agree('messages', messages);
console.log(
  `corpus: ${corpus.length} pieces, ${corpusTokens} tokens; ${strings.length} short strings, ${stringTokens} tokens; ${mismatchCount} mismatches`,
);

// Tokens per second from the agreed counts.
for (const row of rows) {
  row.corpus.tokensPerSecond = corpusTokens / (row.corpus.median / 1000);
  row.shortStrings.tokensPerSecond = stringTokens / (row.shortStrings.median / 1000);
}

const path = result.finish({
  corpus: { bytes: CORPUS_BYTES, pieces: corpus.length, tokens: corpusTokens, passes: PASSES },
  shortStrings: {
    count: strings.length,
    characters: strings.reduce((sum, text) => sum + text.length, 0),
    tokens: stringTokens,
  },
  messages: { count: messages.length, tokensPerMessage: Math.round(messageTokens / messages.length) },
  agreement: { agree: mismatchCount === 0, mismatchCount, mismatches },
  tokenizers: rows,
  coreCounterPerMessage,
});
console.log(`wrote ${path}`);
if (mismatchCount > 0) {
  console.error(`${mismatchCount} text(s) counted differently: see ${path}`);
  process.exitCode = 1;
}
