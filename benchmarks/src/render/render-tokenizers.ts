import type { Stats } from '@compaction/bench-kit/measure';
import { int, ms, table, times } from './markdown.ts';
import { NOT_MEASURED, type ResultHeader, rerun } from './result-files.ts';

/** `tokenizers.json` as `tokenizers.bench.ts` writes it. */
export type TokenizersResult = ResultHeader & {
  corpus: { bytes: number; pieces: number; tokens: number; passes: number };
  shortStrings: { count: number; characters: number; tokens: number };
  messages: { count: number; tokensPerMessage: number };
  agreement: {
    agree: boolean;
    mismatchCount: number;
    mismatches: { input: string; index: number; counts: Record<string, number>; sample: string }[];
  };
  tokenizers: {
    id: string;
    label: string;
    version: string;
    loadMs: number;
    corpus: Stats & { megabytesPerSecond: number; tokensPerSecond: number };
    shortStrings: Stats & { stringsPerSecond: number; tokensPerSecond: number };
    perMessage: Stats;
  }[];
  coreCounterPerMessage: Stats;
};

/** A tokenizer is "decisively" faster per message when its median is at most this fraction of tiktoken's. */
export const DECISIVE = 0.5;

/** `5 MB` or `50 KB`. */
function size(bytes: number): string {
  return bytes >= 1e6 ? `${int(bytes / 1e6)} MB` : `${int(bytes / 1e3)} KB`;
}

/** How a tokenizer's median compares with tiktoken's. */
function against(medianMs: number, tiktokenMs: number): string {
  return medianMs <= tiktokenMs
    ? `${times(tiktokenMs / medianMs)} faster than tiktoken`
    : `${times(medianMs / tiktokenMs)} slower`;
}

/** Section 2: the three o200k_base tokenizers on the same texts. */
export function renderTokenizers(result: TokenizersResult | undefined): string {
  const lines = ['## 2. Tokenizer throughput', ''];
  if (!result) return [...lines, NOT_MEASURED].join('\n');
  lines.push(
    `o200k_base in all three. Inputs built from the recorded sessions' text and code: a ${size(result.corpus.bytes)} mixed corpus (${int(result.corpus.pieces)} pieces, ${int(result.corpus.tokens)} tokens; the fixtures hold ~1 MB of text, repeated), ${int(result.shortStrings.count)} short strings (8–200 characters, ${int(result.shortStrings.tokens)} tokens) and ${int(result.messages.count)} distinct message-sized texts (~${result.messages.tokensPerMessage} tokens each: the per-call case, one new message to count). Corpus and strings: median of ${result.corpus.passes} ${result.corpus.passes === 1 ? 'pass' : 'passes'}; messages: median and p90 per message. gpt-tokenizer keeps an LRU cache of merges between calls; it is emptied before each measured pass, and the “cache off” row disables it. Load: first import plus building the encoder.`,
    '',
  );
  const tiktoken = result.tokenizers.find((row) => row.id === 'tiktoken');
  lines.push(
    table(
      [
        'tokenizer',
        'version',
        'load',
        'one message (median · p90)',
        `${int(result.shortStrings.count)} short strings`,
        `${size(result.corpus.bytes)} corpus`,
      ],
      result.tokenizers.map((row) => [
        row.label,
        row.version,
        ms(row.loadMs),
        `${ms(row.perMessage.median)} · p90 ${ms(row.perMessage.p90)}${tiktoken && row !== tiktoken ? ` (${against(row.perMessage.median, tiktoken.perMessage.median)})` : ''}`,
        `${ms(row.shortStrings.median)} (${int(row.shortStrings.stringsPerSecond)} strings/s)`,
        `${ms(row.corpus.median)} (${row.corpus.megabytesPerSecond.toFixed(1)} MB/s, ${int(row.corpus.tokensPerSecond)} tokens/s)`,
      ]),
      ['l', 'l'],
    ),
    '',
    `Core's own \`tiktokenCounter\` (tiktoken plus its slicing of very long runs) per message: ${ms(result.coreCounterPerMessage.median)} · p90 ${ms(result.coreCounterPerMessage.p90)}.`,
    '',
  );
  lines.push(
    result.agreement.agree
      ? `Counts agree: all three gave the same count for every corpus piece, short string and message.`
      : `**Counts disagree** on ${int(result.agreement.mismatchCount)} texts, e.g. ${result.agreement.mismatches
          .slice(0, 3)
          .map((mismatch) => `${mismatch.input} #${mismatch.index} (${JSON.stringify(mismatch.counts)})`)
          .join('; ')}.`,
    '',
  );
  if (tiktoken) {
    const fastest = result.tokenizers
      .filter((row) => row.id !== 'tiktoken')
      .reduce((best, row) => (row.perMessage.median < best.perMessage.median ? row : best));
    const share = fastest.perMessage.median / tiktoken.perMessage.median;
    lines.push(
      share <= DECISIVE
        ? `Per message — the per-call case — ${fastest.label} is decisively faster than tiktoken: ${ms(fastest.perMessage.median)} against ${ms(tiktoken.perMessage.median)} (${times(1 / share)}). See the “Tokenizer” entry in docs/decisions.md.`
        : `Per message — the per-call case — no tokenizer is decisively faster than tiktoken (fastest: ${fastest.label}, ${ms(fastest.perMessage.median)} against ${ms(tiktoken.perMessage.median)}). tiktoken stays the default; see docs/decisions.md.`,
      '',
    );
  }
  lines.push(rerun(result.command ?? 'cd benchmarks && node src/tokenizers/tokenizers.bench.ts', result));
  return lines.join('\n');
}
